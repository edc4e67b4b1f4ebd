export { handleWixEvent as POST } from "@/lib/revalidate-webhook";
