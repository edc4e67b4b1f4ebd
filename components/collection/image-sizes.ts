/**
 * `sizes` for the layouts images appear in, so the optimiser's srcset offers the browser the
 * width it will really draw (main is 72rem wide at most, with 1rem, then 1.5rem, padding).
 */
export const imageSizes = {
  /** Cards: one column, two from 640 px, three from 1024 px. */
  card: "(min-width: 1152px) 352px, (min-width: 1024px) calc((100vw - 6rem) / 3), (min-width: 640px) calc((100vw - 4.5rem) / 2), calc(100vw - 2rem)",
  /** An item page's main column: two thirds of the page from 1024 px. */
  main: "(min-width: 1152px) 715px, (min-width: 1024px) calc((100vw - 5rem) * 2 / 3), (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)",
  /** Gallery tiles in the main column: two across from 640 px. */
  tile: "(min-width: 1152px) 350px, (min-width: 1024px) calc((100vw - 6rem) / 3), (min-width: 640px) calc((100vw - 4rem) / 2), calc(100vw - 2rem)",
  /** The details panel: a third of the page from 1024 px. */
  aside: "(min-width: 1152px) 310px, (min-width: 1024px) calc((100vw - 5rem) / 3), (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)",
  full: "100vw",
} as const;

export type ImageLayout = keyof typeof imageSizes;

/**
 * The widest each layout draws, in CSS px, for a picture that has one URL and no srcset (a video's
 * still); `full` as a common wide screen.
 */
export const widestWidths: Record<ImageLayout, number> = { card: 352, main: 715, tile: 350, aside: 310, full: 1920 };
