import { readPlatformConfig } from "./config";
import { startPlatform } from "./server";

/** `npm run platform`: starts the local platform alone. */
async function main() {
  const config = readPlatformConfig();
  const platform = await startPlatform(config);
  console.log(`Local platform listening on ${platform.url} (data in ${config.dataDir})`);
  const stop = async () => {
    await platform.app.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
