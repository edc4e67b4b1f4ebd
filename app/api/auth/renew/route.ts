export { handleRenew as GET } from "@/lib/auth/renew";
