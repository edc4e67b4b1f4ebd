import Image from "next/image";

/** A member's photo, or their initial on the club's colour when they have none. */
export function MemberAvatar({ name, photoUrl, size }: { name: string; photoUrl?: string; size: number }) {
  if (photoUrl)
    return (
      <Image
        src={photoUrl}
        alt=""
        width={size}
        height={size}
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
        unoptimized
      />
    );
  return (
    <span
      aria-hidden
      className="flex shrink-0 items-center justify-center rounded-full bg-pine-700 font-serif text-white"
      style={{ width: size, height: size, fontSize: size / 2.5 }}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
