import { describe, expect, it } from "vitest";
import { documentFrom, imageUrl, pictureFrom, soundFrom, videoFrom } from "@/lib/wix/media";

describe("pictures", () => {
  it("turn wix:image URIs into Wix media URLs with their size, through the SDK", () => {
    expect(pictureFrom("wix:image://v1/8bb438_abc~mv2.jpg/summit.jpg#originWidth=1600&originHeight=1067", "The summit")).toEqual({
      src: "https://static.wixstatic.com/media/8bb438_abc~mv2.jpg",
      alt: "The summit",
      width: 1600,
      height: 1067,
    });
    // No size in the URI: the picture is shown cropped instead.
    expect(pictureFrom("wix:image://v1/abc.png/abc.png")).toEqual({ src: "https://static.wixstatic.com/media/abc.png", alt: "" });
  });

  it("take paths on this site and Wix media URLs as they are", () => {
    expect(imageUrl("/media/demo/ridge.jpg")).toBe("/media/demo/ridge.jpg");
    expect(imageUrl("https://static.wixstatic.com/media/abc.jpg")).toBe("https://static.wixstatic.com/media/abc.jpg");
    // The optimiser refuses site images with a query string; the path alone is kept.
    expect(imageUrl("/media/demo/ridge.jpg?v=2")).toBe("/media/demo/ridge.jpg");
  });

  it("refuse anything the site cannot serve or that leads elsewhere", () => {
    for (const hostile of [
      "javascript:alert(1)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "//evil.example/x.jpg",
      "/\\evil.example/x.jpg",
      "https://evil.example/x.jpg",
      "http://static.wixstatic.com.evil.example/x.jpg",
      "wix:image://v1//x.jpg",
      "wix:image://%%%",
      "",
      42,
      { url: "/media/demo/ridge.jpg" },
    ]) {
      expect(pictureFrom(hostile), String(hostile)).toBeUndefined();
    }
  });
});

describe("video, sound and documents", () => {
  it("read Wix URIs with the SDK's helpers", () => {
    expect(videoFrom("wix:video://v1/11062b_video/flyover.mp4#posterUri=11062b_poster.jpg&posterWidth=640&posterHeight=360")).toEqual({
      src: "https://video.wixstatic.com/video/11062b_video/file",
      poster: "https://static.wixstatic.com/media/11062b_poster.jpg",
    });
    expect(soundFrom("wix:audio://v1/5c4f_notes.mp3/notes.mp3#duration=12")).toEqual({ src: "https://static.wixstatic.com/mp3/5c4f_notes.mp3" });
    expect(documentFrom("wix:document://v1/ugd/5c4f_checklist.pdf/Ten%20essentials.pdf")).toEqual({
      href: "https://d945e594-8657-47e2-9cd9-e9033c3d8da0.usrfiles.com/ugd/5c4f_checklist.pdf",
      name: "Ten essentials.pdf",
    });
  });

  it("take site paths, and name a document by its file", () => {
    expect(videoFrom("/media/demo/ridge-flyover.mp4")).toEqual({ src: "/media/demo/ridge-flyover.mp4" });
    expect(soundFrom("/media/demo/trail-notes.mp3")).toEqual({ src: "/media/demo/trail-notes.mp3" });
    expect(documentFrom("/media/demo/ten-essentials-checklist.pdf")).toEqual({
      href: "/media/demo/ten-essentials-checklist.pdf",
      name: "ten-essentials-checklist.pdf",
    });
    // A document is a link the visitor follows: any web address will do.
    expect(documentFrom("https://parks.example/maps/north%20ridge.pdf")).toEqual({
      href: "https://parks.example/maps/north%20ridge.pdf",
      name: "north ridge.pdf",
    });
  });

  it("refuse script URLs and foreign hosts for media the page plays", () => {
    for (const read of [videoFrom, soundFrom, documentFrom]) {
      expect(read("javascript:alert(1)")).toBeUndefined();
      expect(read("//evil.example/file")).toBeUndefined();
      expect(read("vbscript:msgbox(1)")).toBeUndefined();
    }
    expect(videoFrom("https://evil.example/clip.mp4")).toBeUndefined();
    expect(soundFrom("https://evil.example/clip.mp3")).toBeUndefined();
  });
});
