import type { Metadata } from "next";
import { readAsMember, requireMember } from "@/lib/auth/server";
import { currentMember } from "@/lib/wix/members";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const session = await requireMember("/account");
  // If the session has ended on the platform, the member goes on as a visitor on the home page.
  const member = await readAsMember(session, "/account", currentMember, "/");

  return (
    <section className="mx-auto max-w-2xl py-12">
      <h1 className="font-serif text-4xl font-semibold text-pine-900">Your account</h1>
      <p className="mt-2 text-stone-600">Welcome back, {member.name}.</p>
      <dl className="mt-8 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {[
          ["Display name", member.name],
          ["Email", member.email ?? "—"],
          ["Name", [member.firstName, member.lastName].filter(Boolean).join(" ") || "—"],
          ["Member since", member.joinedAt ? member.joinedAt.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" }) : "—"],
        ].map(([label, value]) => (
          <div key={label} className="grid grid-cols-3 gap-4 px-5 py-4 text-sm">
            <dt className="font-medium text-stone-500">{label}</dt>
            <dd className="col-span-2 text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
