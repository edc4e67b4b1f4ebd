// Class lists that several components share, so a change of look is made once.

/** The outline keyboard users see on a focused control (never on a mouse click). */
export const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-pine-700";
/** The same outline in red, for destructive actions. */
export const dangerFocusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700";
/** The header's menu buttons (sections on a phone, the member menu): white, outlined, green while open. */
export const headerMenuButton = "border border-stone-300 bg-white text-sm font-medium text-stone-800 hover:border-pine-600 in-open:border-pine-600";
/** A link or button in an open header menu. */
export const headerMenuItem = "block w-full cursor-pointer px-4 py-2 text-left text-sm text-stone-800 hover:bg-sand-100 focus-visible:bg-sand-100";
/** A disclosure's summary drawn as a button: no list marker, a pointer. */
export const summaryButton = "cursor-pointer list-none [&::-webkit-details-marker]:hidden";
