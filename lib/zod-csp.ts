import { z } from "zod";

/**
 * The site's Content-Security-Policy allows no eval. zod's compiled fast path probes for
 * `new Function` the first time an object schema parses, which the browser reports as a policy
 * violation even though zod catches it; the forms that check input in the browser import this
 * first, so zod never probes.
 */
z.config({ jitless: true });
