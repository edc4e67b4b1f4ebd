import { expect, test } from "./test";

// The image optimiser answers only the widths and quality the site asks for, and keeps a result
// for at least a minute: Next.js 16 changed these defaults, next.config.ts pins them.
const image = (width: number, quality = 75) => `/_next/image?url=${encodeURIComponent("/media/demo/ridge.jpg")}&w=${width}&q=${quality}`;

test("the optimiser takes the pinned widths at quality 75 and nothing else", async ({ request }) => {
  for (const width of [16, 32, 48, 64, 96, 128, 256, 384, 640, 750, 828, 1080, 1200, 1920, 2048, 3840]) {
    expect((await request.get(image(width))).status(), `width ${width}`).toBe(200);
  }
  for (const width of [8, 100, 500, 4096]) expect((await request.get(image(width))).status(), `width ${width}`).toBe(400);
  expect((await request.get(image(640, 80))).status()).toBe(400);
  expect((await request.get(image(640, 100))).status()).toBe(400);
});

test("an optimised image is cached for 60 seconds at least, not 16's four hours", async ({ request }) => {
  const answer = await request.get(image(640));
  expect(answer.headers()["cache-control"]).toMatch(/max-age=60\b/);
});
