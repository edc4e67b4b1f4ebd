export async function register() {
  // The condition is compiled in, so the edge bundle never sees Node-only modules.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installLocalPlatformRouting } = await import("@/lib/wix/local-platform-fetch");
    installLocalPlatformRouting();
  }
}
