export async function register() {
  // The condition is compiled in, so the edge bundle never sees Node-only modules.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { ConfigError } = await import("@/lib/config");
    const { installLocalPlatformRouting } = await import("@/lib/wix/local-platform-fetch");
    try {
      // Parses the configuration too, so a bad one stops the server at start-up.
      installLocalPlatformRouting();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(error.message);
      process.exit(1);
    }
  }
}
