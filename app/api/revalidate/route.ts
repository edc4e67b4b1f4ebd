export { handleRevalidate as POST } from "@/lib/revalidate-webhook";
