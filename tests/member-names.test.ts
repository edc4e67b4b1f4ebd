import { describe, expect, it } from "vitest";
import { toProfile, toPublicMember } from "@/lib/wix/members";

/** The name a member is shown by: what they gave, and never anything of their e-mail address. */
describe("a member's name", () => {
  it("is the nickname, else the first and last name, else “Member”", () => {
    expect(toProfile({ _id: "m", profile: { nickname: "Robin" }, contact: { firstName: "Robin", lastName: "Hill" } }).name).toBe("Robin");
    expect(toProfile({ _id: "m", contact: { firstName: "Robin", lastName: "Hill" } }).name).toBe("Robin Hill");
    expect(toPublicMember({ _id: "m", profile: { slug: "member" } }).name).toBe("Member");
  });

  it("never comes from the login e-mail, even for the member's own profile", () => {
    expect(toProfile({ _id: "m", loginEmail: "pending.53501@example.com" }).name).toBe("Member");
  });
});

describe("a member without a nickname", () => {
  it("is marked unnamed, with the day they joined, so the directory can tell such members apart", () => {
    const unnamed = toPublicMember({ _id: "m", profile: { nickname: "Member", slug: "member-3" }, _createdDate: "2026-03-04T05:06:07.000Z" });
    expect(unnamed).toMatchObject({ name: "Member", named: false, joinedAt: "2026-03-04T05:06:07.000Z" });
    expect(toPublicMember({ _id: "m", profile: { nickname: "Robin", slug: "robin" } })).toMatchObject({ name: "Robin", named: true });
  });
});
