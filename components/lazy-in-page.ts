import { lazy, type ComponentType } from "react";

/**
 * Components of a module that the browser downloads only when one of them renders, while the
 * server renders them into the page at once. A plain `lazy` would suspend on the server the first
 * time, and React would stream the component later in a hidden chunk that only script reveals:
 * without JavaScript it would never show. So the caller hands over the module itself on the
 * server and a loader in the browser, splitting on `typeof window`, which the bundler settles
 * per side, leaving the browser's chunk without the module:
 *
 *   lazyInPage<typeof Forms>(typeof window === "undefined" ? require("./forms") : () => import("./forms"))
 *
 * No Suspense boundary goes around them: on the server, one would let React send the page before
 * them whenever anything inside was a moment late (the page's own streamed data). In the browser,
 * the server's HTML stays in place meanwhile: hydration waits for the module.
 */
export function lazyInPage<Module extends object>(source: Module | (() => Promise<Module>)) {
  return <Props extends object>(pick: (module: Module) => ComponentType<Props>): ComponentType<Props> => {
    if (typeof source !== "function") return pick(source);
    const load = source as () => Promise<Module>;
    return lazy(async () => ({ default: pick(await load()) }));
  };
}
