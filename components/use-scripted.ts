"use client";

import { useSyncExternalStore } from "react";

/** True once the page's script runs: false on the server and in a browser without JavaScript. */
export function useScripted(): boolean {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}
