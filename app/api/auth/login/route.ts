export { handleLogin as GET } from "@/lib/auth/login";
