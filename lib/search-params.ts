import { z } from "zod";

/** `?page=` for paged lists: absent means 1; anything but a whole number from 1 up is invalid. */
const pageParam = z.union([z.undefined(), z.string().regex(/^[1-9]\d{0,5}$/).transform(Number)]);

export function parsePageParam(value: string | string[] | undefined): number | null {
  const parsed = pageParam.safeParse(value);
  return parsed.success ? (parsed.data ?? 1) : null;
}
