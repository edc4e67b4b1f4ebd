// A small Wix headless app written only against the public @wix/* packages: nothing in it knows
// about the local platform. Run it against one with the register line (platform/README.md,
// "Your own app"):
//
//   npx local-wix-platform --port 4010 --data .data
//   node --import @ridgeline/local-platform/register platform/examples/plain-app.mjs
//
// It prints one JSON line per step, which platform/register.test.ts reads.
import { items } from "@wix/data";
import { members } from "@wix/members";
import { createClient, OAuthStrategy } from "@wix/sdk";

const clientId = process.env.WIX_CLIENT_ID ?? "local-site-client";
const redirectUri = process.env.WIX_REDIRECT_URI ?? "http://localhost:3000/api/auth/callback";
const email = process.env.MEMBER_EMAIL ?? "demo@ridgeline.example";
const password = process.env.MEMBER_PASSWORD ?? "ridgeline-demo";

const report = (step, data) => console.log(JSON.stringify({ step, ...data }));

// A visitor reads a collection.
const client = createClient({ modules: { items, members }, auth: OAuthStrategy({ clientId }) });
const trails = await client.items.query("Trails").ascending("title").limit(3).find();
report("visitor query", { titles: trails.items.map((item) => item.title) });

// The member logs in with the SDK's own-form login; in Node the session token becomes member
// tokens through a silent (prompt=none) authorization in query mode, as a server-side app does it.
const login = await client.auth.login({ email, password });
report("login", { loginState: login.loginState });
if (login.loginState !== "SUCCESS") process.exit(1);
const oauthData = client.auth.generateOAuthData(redirectUri);
const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query", prompt: "none", sessionToken: login.data.sessionToken });
const back = new URL((await fetch(authUrl, { redirect: "manual" })).headers.get("location"));
client.auth.setTokens(await client.auth.getMemberTokens(back.searchParams.get("code"), back.searchParams.get("state"), oauthData));

const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
report("member", { loggedIn: client.auth.loggedIn(), loginEmail: member.loginEmail, nickname: member.profile?.nickname });
