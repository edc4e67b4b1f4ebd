export { handleLogout as POST } from "@/lib/auth/logout";
