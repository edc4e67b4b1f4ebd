import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isFormActionName } from "@/lib/security/request-guard";

/**
 * The server refuses a call to a form action whose arguments are not the previous state and the
 * form's data (lib/security/request-guard.ts), and tells form actions by their names. This holds
 * the site's actions to that rule: every `…Action` takes exactly those two, and nothing else is so named.
 */
function serverActionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverActionFiles(file);
    return /\.tsx?$/.test(entry.name) && /^["']use server["'];/m.test(fs.readFileSync(file, "utf8")) ? [file] : [];
  });
}

describe("the site's server actions", () => {
  it("are form actions, (previous state, form data), exactly when their names end in Action", () => {
    const files = ["app", "components", "lib"].flatMap((dir) => serverActionFiles(dir));
    const actions = files.flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/^export (?:async function (\w+)\(([^)]*)\)|const (\w+))/gm)].map(([, name, params, constant]) => ({
        file,
        name: name ?? constant,
        params,
      })),
    );
    expect(actions.length).toBeGreaterThan(10);
    for (const action of actions) {
      const formShaped = action.params !== undefined && /^\w+: \w+, formData: FormData$/.test(action.params.trim());
      expect(formShaped, `${action.file}: ${action.name}(${action.params ?? "?"})`).toBe(isFormActionName(action.name));
    }
  });
});
