import node from "@astrojs/node";
import wix from "@wix/astro";
import { defineConfig } from "astro/config";

// Wix's integration as its templates use it, on the Node adapter instead of Wix's hosting: every
// page is rendered on request, with the visitor's session from the integration's middleware.
export default defineConfig({
  output: "server",
  // Astro trusts a request's Host only for these names; the login route builds its callback URL
  // from it, and the platform accepts only the redirect URI registered for the client.
  security: { allowedDomains: [{ hostname: "localhost" }, { hostname: "127.0.0.1" }] },
  adapter: node({ mode: "standalone" }),
  integrations: [wix()],
});
