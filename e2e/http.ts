import http from "node:http";

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * One request as a client can really send it: any method, any Host, raw header values.
 * (fetch refuses TRACE and a forged Host, and Playwright's request context normalises headers.)
 */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method: init.method ?? "GET", headers: init.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}
