import { useEffect } from "react";
import { csrfToken, signedIn } from "./api";
import { AREAS } from "./areas";
import { FaultsWarning } from "./areas/settings";
import { Link, navigate, studioHref, useLocation } from "./router";

const LOGO = (
  <svg width="28" height="20" viewBox="0 0 28 20" aria-hidden="true">
    <path d="M0 20 9 5l5 8 4-6 10 13z" fill="currentColor" />
  </svg>
);

export function App() {
  const { segments, search } = useLocation();
  const area = AREAS.find((candidate) => candidate.id === segments[0]);

  useEffect(() => {
    if (!segments[0]) navigate(studioHref([AREAS[0].id]), { replace: true });
  }, [segments]);
  useEffect(() => {
    document.title = `${area ? `${area.label} · ` : ""}Studio · Local platform`;
  }, [area]);

  return (
    <>
      <a className="skip" href="#area">
        Skip to content
      </a>
      <header className="top">
        <p className="brand">
          {LOGO}
          <span>
            Local platform <strong>Studio</strong>
          </span>
        </p>
        <nav aria-label="Studio">
          <ul>
            {AREAS.map((candidate) => (
              <li key={candidate.id}>
                <Link href={studioHref([candidate.id])} aria-current={candidate === area ? "page" : undefined}>
                  {candidate.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <FaultsWarning />
        {signedIn() && (
          <form method="post" action="/_local/studio/sign-out" className="sign-out">
            <input type="hidden" name="csrf" value={csrfToken()} />
            <button type="submit" className="secondary">
              Sign out
            </button>
          </form>
        )}
      </header>
      <main id="area">
        {area ? (
          <area.Component key={area.id} path={segments.slice(1)} search={search} />
        ) : segments[0] ? (
          <>
            <h1>Not found</h1>
            <p>The Studio has no area called “{segments[0]}”.</p>
          </>
        ) : null}
      </main>
    </>
  );
}
