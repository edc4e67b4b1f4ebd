import { useEffect, useState, type FormEvent } from "react";
import { studioApi, useChange, useStudioData } from "../api";
import { AreaHeading, ErrorMessage, Loading, StatusMessage, Table } from "../components";
import { ConfirmAction } from "../controls";
import { Link, studioHref } from "../router";

type ClientSource = "site" | "environment" | "file";
type Client = { id: string; redirectUris: { uri: string; sources: ClientSource[] }[]; hasSecret: boolean; webhookUrl: string | null };
type FaultRule = { pathPrefix: string; latencyMs: number; errorRate: number; errorStatus: number; dropRate: number; garbageRate: number };
type Backup = { id: string; status: string; requestedDate: string; finishedDate: string | null; sizeInBytes: string | null; collections: { id: string }[] };
type Restoration = { id: string; status: string; requestedDate: string; backup: { id: string } };

const SOURCE_LABELS: Record<ClientSource, string> = {
  site: "the site's own callback (SITE_URL)",
  environment: "LOCAL_PLATFORM_OAUTH_CLIENTS",
  file: "oauth-clients.json",
};

/** Fault rules changed in this tab tell the header at once; other tabs' changes show at its next look. */
const FAULTS_CHANGED = "studio-faults-changed";
const FAULTS_REFRESH_MS = 5000;

const dateOf = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }) : "—");
const sizeOf = (bytes: string | null) => (bytes === null ? "—" : `${(Number(bytes) / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} KB`);

function OAuthClients() {
  const loaded = useStudioData<{ clients: Client[]; environment: boolean; file: string }>("/settings/oauth-clients");
  const [clientId, setClientId] = useState("");
  const [redirectUri, setRedirectUri] = useState("");
  const change = useChange();
  const clients = loaded.data?.clients;
  const chosenClient = clientId || clients?.[0]?.id || "";

  async function add(event: FormEvent) {
    event.preventDefault();
    const body = { clientId: chosenClient, redirectUri: redirectUri.trim() };
    const added = await change.run(
      () => studioApi("/settings/oauth-clients", { method: "POST", body }),
      () => `${body.redirectUri} is a redirect URI of ${body.clientId} now.`,
    );
    if (added) {
      setRedirectUri("");
      loaded.reload();
    }
  }
  return (
    <section className="panel" aria-labelledby="clients-heading">
      <h2 id="clients-heading">OAuth clients</h2>
      <p className="hint">
        The apps that may sign visitors and members in, and the exact addresses they may be sent back to. They come from the site&apos;s address, the
        LOCAL_PLATFORM_OAUTH_CLIENTS variable and {loaded.data?.file ?? "oauth-clients.json"} in the data folder; what you add here goes into that file and
        works at once.
      </p>
      <ErrorMessage error={loaded.error} />
      {!clients && loaded.loading && <Loading what="the clients" />}
      {clients?.map((client) => (
        <div key={client.id} className="client">
          <h3>{client.id}</h3>
          {client.hasSecret && <p className="muted">Has a secret: may ask for its own token (client_credentials) for elevated calls.</p>}
          {client.webhookUrl && (
            <p className="muted">
              Webhooks go to <code>{client.webhookUrl}</code>.
            </p>
          )}
          <ul className="uri-list">
            {client.redirectUris.map(({ uri, sources }) => (
              <li key={uri}>
                <code>{uri}</code> <span className="muted">from {sources.map((source) => SOURCE_LABELS[source]).join(" and ")}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <form className="inline-form" onSubmit={add}>
        <div className="field">
          <label htmlFor="client-id">Client id</label>
          <input id="client-id" list="client-ids" value={chosenClient} onChange={(event) => setClientId(event.target.value)} required maxLength={200} />
          <datalist id="client-ids">
            {clients?.map((client) => (
              <option key={client.id} value={client.id} />
            ))}
          </datalist>
        </div>
        <div className="field wide">
          <label htmlFor="redirect-uri">Redirect URI</label>
          <input
            id="redirect-uri"
            type="url"
            value={redirectUri}
            onChange={(event) => setRedirectUri(event.target.value)}
            placeholder="http://localhost:5173/callback"
            required
            aria-invalid={change.error ? true : undefined}
            aria-describedby={change.error ? "redirect-uri-error" : undefined}
          />
        </div>
        <button type="submit" disabled={change.busy}>
          Add the redirect URI
        </button>
      </form>
      <div id="redirect-uri-error">
        <ErrorMessage error={change.error} />
      </div>
      <StatusMessage>{change.message}</StatusMessage>
    </section>
  );
}

function Webhooks() {
  const loaded = useStudioData<{ publicKey: string; publicKeyPem: string; apps: { id: string; webhookUrl: string }[] }>("/settings/webhooks");
  const apps = loaded.data?.apps;
  return (
    <section className="panel" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p className="hint">
        The platform tells apps registered with a webhookUrl (and a secret) what changed: data items, members, follows, indexes, backups and movement jobs. Each
        call is a JWT signed with the platform&apos;s own key, kept in the data folder; an app checks it with the public key below, given to it as
        WIX_CLIENT_PUBLIC_KEY (or AppStrategy&apos;s publicKey). Apps registered while the platform runs get webhooks after a restart.
      </p>
      <ErrorMessage error={loaded.error} />
      {!loaded.data && loaded.loading && <Loading what="the webhook settings" />}
      {apps &&
        (apps.length === 0 ? <p className="muted">No app takes webhooks.</p> : <p>Sent to {apps.map((app) => `${app.id} (${app.webhookUrl})`).join(", ")}.</p>)}
      {loaded.data && (
        <>
          <label htmlFor="webhook-public-key">WIX_CLIENT_PUBLIC_KEY</label>
          <textarea id="webhook-public-key" readOnly rows={3} value={loaded.data.publicKey} />
          <details>
            <summary>The same key as PEM</summary>
            <pre>{loaded.data.publicKeyPem}</pre>
          </details>
        </>
      )}
    </section>
  );
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

function describeRule(rule: FaultRule): string {
  const parts = [];
  if (rule.latencyMs > 0) parts.push(`${rule.latencyMs} ms slower`);
  if (rule.errorRate >= 1) parts.push(`every request fails with ${rule.errorStatus}`);
  else if (rule.errorRate > 0) parts.push(`${percent(rule.errorRate)} fail with ${rule.errorStatus}`);
  if (rule.dropRate > 0) parts.push(`${percent(rule.dropRate)} dropped`);
  if (rule.garbageRate > 0) parts.push(`${percent(rule.garbageRate)} answered with a body that is not JSON`);
  return parts.join(", ") || "no effect";
}

function FaultMode() {
  const loaded = useStudioData<{ rules: FaultRule[] }>("/settings/faults");
  const [pathPrefix, setPathPrefix] = useState("/");
  const [latencyMs, setLatencyMs] = useState("0");
  const [errorPercent, setErrorPercent] = useState("0");
  const [errorStatus, setErrorStatus] = useState("503");
  const [outage, setOutage] = useState(false);
  const change = useChange();
  const rules = loaded.data?.rules;

  async function save(next: FaultRule[] | Array<Partial<FaultRule>>, done: string) {
    const saved = await change.run(
      () => studioApi("/settings/faults", { method: "PUT", body: { rules: next } }),
      () => done,
    );
    if (saved) {
      loaded.reload();
      window.dispatchEvent(new Event(FAULTS_CHANGED));
    }
  }
  function add(event: FormEvent) {
    event.preventDefault();
    const prefix = pathPrefix.trim();
    const rule = {
      pathPrefix: prefix,
      latencyMs: Number(latencyMs) || 0,
      errorRate: outage ? 1 : (Number(errorPercent) || 0) / 100,
      errorStatus: Number(errorStatus),
    };
    // One rule per prefix: adding one for a prefix already faulted replaces it.
    void save([...(rules ?? []).filter((existing) => existing.pathPrefix !== prefix), rule], `Faults on ${prefix} are on.`);
  }
  return (
    <section className="panel" aria-labelledby="faults-heading">
      <h2 id="faults-heading">Fault mode</h2>
      <p className="hint">
        Make the platform slow or failing on purpose, per path prefix, to see how the site copes. The Studio and other /_local addresses are never faulted.
        Rules last until the platform restarts.
      </p>
      <ErrorMessage error={loaded.error ?? change.error} />
      {rules && rules.length === 0 && <p>No faults: the platform answers normally.</p>}
      {rules && rules.length > 0 && (
        <Table caption="Fault rules" columns={["Paths starting with", "Effect", "Actions"]}>
          {rules.map((rule) => (
            <tr key={rule.pathPrefix}>
              <td>
                <code>{rule.pathPrefix}</code>
              </td>
              <td>{describeRule(rule)}</td>
              <td>
                <button
                  type="button"
                  className="secondary small"
                  disabled={change.busy}
                  aria-label={`Turn off the faults on ${rule.pathPrefix}`}
                  onClick={() =>
                    save(
                      rules.filter((other) => other !== rule),
                      `Faults on ${rule.pathPrefix} are off.`,
                    )
                  }
                >
                  Turn off
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {rules && rules.length > 1 && (
        <p>
          <button type="button" className="secondary" disabled={change.busy} onClick={() => save([], "Every fault is off.")}>
            Turn every fault off
          </button>
        </p>
      )}
      <form className="inline-form" onSubmit={add} aria-labelledby="add-fault-heading">
        <h3 id="add-fault-heading" className="form-title">
          Add a fault
        </h3>
        <div className="field">
          <label htmlFor="fault-prefix">Paths starting with</label>
          <input id="fault-prefix" value={pathPrefix} onChange={(event) => setPathPrefix(event.target.value)} required pattern="/.*" maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor="fault-latency">Latency (ms)</label>
          <input id="fault-latency" type="number" min={0} max={120000} step={50} value={latencyMs} onChange={(event) => setLatencyMs(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="fault-error-rate">Error rate (%)</label>
          <input
            id="fault-error-rate"
            type="number"
            min={0}
            max={100}
            value={outage ? "100" : errorPercent}
            disabled={outage}
            onChange={(event) => setErrorPercent(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="fault-status">Error status</label>
          <select id="fault-status" value={errorStatus} onChange={(event) => setErrorStatus(event.target.value)}>
            {["500", "502", "503", "504"].map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </div>
        <p className="check">
          <input id="fault-outage" type="checkbox" checked={outage} onChange={(event) => setOutage(event.target.checked)} />
          <label htmlFor="fault-outage">Outage: every request fails</label>
        </p>
        <button type="submit" disabled={change.busy}>
          Turn the fault on
        </button>
      </form>
      <StatusMessage>{change.message}</StatusMessage>
    </section>
  );
}

function Backups() {
  const loaded = useStudioData<{ backups: Backup[]; restorations: Restoration[] }>("/settings/backups");
  const change = useChange();
  const { reload } = loaded;
  const backups = loaded.data?.backups;
  const working = [...(backups ?? []), ...(loaded.data?.restorations ?? [])].some((entry) => entry.status === "PENDING");
  // Backups and restorations finish after the request that asked: look again until none is pending.
  useEffect(() => {
    if (!working) return;
    const timer = setTimeout(reload, 1000);
    return () => clearTimeout(timer);
  }, [working, loaded.data, reload]);

  // The backup or restoration the last request started: its words while it runs, and once the list shows it settled.
  const [task, setTask] = useState<{ id: string; kind: "backup" | "restoration"; underWay: string; finished: string }>();
  const take = () =>
    change
      .run(
        () => studioApi<{ backup: Backup }>("/settings/backups", { method: "POST" }),
        ({ backup }) => {
          setTask({ id: backup.id, kind: "backup", underWay: "A backup is being taken.", finished: "The backup is ready." });
          return "";
        },
      )
      .then(reload);
  const restore = (backup: Backup) =>
    change
      .run(
        () => studioApi<{ restoration: Restoration }>(`/settings/backups/${backup.id}/restore`, { method: "POST" }),
        ({ restoration }) => {
          const when = dateOf(backup.requestedDate);
          setTask({ id: restoration.id, kind: "restoration", underWay: `Restoring the backup of ${when}.`, finished: `The backup of ${when} is restored.` });
          return "";
        },
      )
      .then(reload);
  const entries = task?.kind === "backup" ? backups : loaded.data?.restorations;
  const taskStatus = entries?.find((entry) => entry.id === task?.id)?.status;
  const settled =
    taskStatus === "READY" || taskStatus === "COMPLETED" ? task?.finished : taskStatus === "FAILED" ? `The ${task?.kind} failed.` : task?.underWay;
  const status = change.error ? undefined : settled;
  return (
    <section className="panel" aria-labelledby="backups-heading">
      <h2 id="backups-heading">Backups</h2>
      <p className="hint">
        The data service&apos;s collections, items and references, as <code>npm run platform -- backup</code> and the SDK&apos;s backups take them. A restore
        puts every collection of the backup back as it was. Each backup is a SQLite file you can download.
      </p>
      <p>
        <button type="button" disabled={change.busy} onClick={take}>
          Take a backup
        </button>
      </p>
      <ErrorMessage error={loaded.error ?? change.error} />
      <StatusMessage>{status}</StatusMessage>
      {backups?.length === 0 && <p>No backups yet.</p>}
      {backups && backups.length > 0 && (
        <Table caption="Backups" region="Backups taken" columns={["Taken", "Status", "Collections", "Size", "Actions"]}>
          {backups.map((backup) => (
            <tr key={backup.id}>
              <td>{dateOf(backup.requestedDate)}</td>
              <td>{backup.status.toLowerCase()}</td>
              <td>{backup.collections.length}</td>
              <td>{sizeOf(backup.sizeInBytes)}</td>
              <td>
                {backup.status === "READY" && (
                  <div className="row-actions" role="group" aria-label={`Backup of ${dateOf(backup.requestedDate)}`}>
                    <a className="button secondary small" href={`/_local/studio/api/settings/backups/${backup.id}/download`} download>
                      Download
                    </a>
                    <ConfirmAction
                      label="Restore"
                      question="Replace those collections with this backup?"
                      confirmLabel="Restore the backup"
                      disabled={change.busy}
                      onConfirm={() => restore(backup)}
                    />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {(loaded.data?.restorations.length ?? 0) > 0 && (
        <>
          <h3>Restorations</h3>
          <ul className="plain-list">
            {loaded.data!.restorations.map((restoration) => (
              <li key={restoration.id}>
                {dateOf(restoration.requestedDate)}: {restoration.status.toLowerCase()}
              </li>
            ))}
          </ul>
        </>
      )}
      {!backups && loaded.loading && <Loading what="the backups" />}
    </section>
  );
}

/** Settings (docs/platform/studio.md §7): OAuth clients, fault mode and backups. */
export function SettingsArea() {
  return (
    <>
      <AreaHeading>Settings</AreaHeading>
      <OAuthClients />
      <Webhooks />
      <FaultMode />
      <Backups />
    </>
  );
}

/** The header's warning while any fault rule is on, on every Studio page, so a slow or failing site is never a mystery. */
export function FaultsWarning() {
  const faults = useStudioData<{ rules: FaultRule[] }>("/settings/faults");
  const { reload } = faults;
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === "visible" && reload(), FAULTS_REFRESH_MS);
    window.addEventListener(FAULTS_CHANGED, reload);
    return () => {
      clearInterval(timer);
      window.removeEventListener(FAULTS_CHANGED, reload);
    };
  }, [reload]);
  const count = faults.data?.rules.length ?? 0;
  return (
    <div role="status" className={count > 0 ? "faults-on" : "faults-off"}>
      {count > 0 && (
        <>
          <strong>Faults are on</strong> ({count === 1 ? "1 rule" : `${count} rules`}): the platform is slow or failing on purpose.{" "}
          <Link href={studioHref(["settings"])}>Fault mode</Link>
        </>
      )}
    </div>
  );
}
