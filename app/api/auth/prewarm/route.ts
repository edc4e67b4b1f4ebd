export { handlePrewarm as POST } from "@/lib/auth/prewarm";
