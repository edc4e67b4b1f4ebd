import "server-only";
import QRCode from "qrcode";

/**
 * A QR code as an SVG data URL, drawn on the server: the set-up secret in it never goes to a
 * third-party image service, and the page needs no script to show it.
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
