import { test } from "../test";
import { hostedLoginAsksTheNewestWayThenTheLastUsed } from "../two-step";

// The hosted code page is plain forms: its one form, "Use another way" (a <details>) and the cookie that keeps the way last used need no script.
test("without script, the hosted code page asks first for the way set up last, then for the one last used on this browser, with one remember box", async ({
  page,
}) => {
  await hostedLoginAsksTheNewestWayThenTheLastUsed(page);
});
