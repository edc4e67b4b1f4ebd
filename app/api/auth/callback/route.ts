export { handleCallback as GET } from "@/lib/auth/callback";
