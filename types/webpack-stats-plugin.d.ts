// The package ships no types; this is the part next.config.ts uses.
declare module "webpack-stats-plugin" {
  export class StatsWriterPlugin {
    constructor(options: {
      filename?: string;
      stats?: Record<string, unknown>;
      // The stats object as webpack's `toJson(stats)` gives it.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      transform?: (data: any) => string | Promise<string>;
    });
    apply(compiler: unknown): void;
  }
}
