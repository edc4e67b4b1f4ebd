/** What an area receives: the path segments after its own, and the query. */
export type AreaProps = { path: string[]; search: URLSearchParams };
