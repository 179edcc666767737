// API keys of the workspace (owners): create one with its networks and expiry (the secret is shown once), revoke;
// and how to connect MCP clients and ChatGPT to this server, with its addresses filled in.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { networkName } from '../../api/networks.ts';
import { usePlatforms } from '../../api/platforms.ts';
import { fieldError } from '../../api/errors.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorState, ErrorText, Loading } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { OnceSecret, Snippet } from './CopyButton.tsx';
import '../../styles/pages.css';
import { describeScope, expiryFrom, scopeFrom, serverUrls } from './scope.ts';

type CreatedKey = { secret: string; name: string | null; scope: string };

const EXPIRIES = [0, 30, 90, 365] as const;

/** The networks Herald knows (GET /unified/platforms), else the workspace record's `<network>_connected` fields. */
function useNetworks(workspace: object): string[] {
  const platforms = usePlatforms();
  if (platforms.data?.platforms.length) return platforms.data.platforms.map((p) => p.slug);
  return Object.keys(workspace)
    .filter((k) => k.endsWith('_connected'))
    .map((k) => k.slice(0, -'_connected'.length));
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const networks = useNetworks(workspace);
  const [name, setName] = useState('');
  const [all, setAll] = useState(true);
  const [picked, setPicked] = useState<string[]>([]);
  const [days, setDays] = useState<number>(90);
  const expiryId = useId();
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/workspaces/{workspace_id}/api-keys', {
          params: { path: { workspace_id: workspace.id } },
          body: { name: name.trim() || null, scope: scopeFrom(all, picked), expires_at: expiryFrom(days, Date.now()) },
        }),
      ),
    onSuccess: (key) => {
      onCreated({ secret: key.secret, name: key.name, scope: key.scope });
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  return (
    <form
      className="card form-card"
      aria-labelledby="new-key-heading"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2 id="new-key-heading">{t.keys.create}</h2>
      <TextField
        label={t.keys.name}
        value={name}
        maxLength={120}
        onChange={(e) => setName(e.target.value)}
        error={fieldError(create.error, 'name')}
        hint={t.keys.nameHint}
      />
      <CheckGroup
        legend={t.keys.scope}
        className="check-grid"
        options={all ? [] : networks.map((n) => ({ value: n, label: networkName(n) }))}
        selected={picked}
        onChange={setPicked}
        error={fieldError(create.error, 'scope')}
      >
        <label className="check check-all">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          {t.keys.allNetworks}
        </label>
      </CheckGroup>
      <div className="field">
        <label htmlFor={expiryId}>{t.keys.expiry}</label>
        <select id={expiryId} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {EXPIRIES.map((d) => (
            <option key={d} value={d}>
              {d === 0 ? t.keys.never : t.keys.days(d)}
            </option>
          ))}
        </select>
      </div>
      <ErrorText error={create.error} />
      <Button type="submit" variant="primary" busy={create.isPending} disabled={!all && picked.length === 0}>
        {t.keys.createButton}
      </Button>
    </form>
  );
}

function SecretDialog({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  const urls = serverUrls(window.location.origin);
  return (
    <Dialog
      open
      title={t.keys.secretTitle}
      onClose={onClose}
      actions={<Button onClick={onClose}>{t.keys.done}</Button>}
    >
      <OnceSecret
        note={t.keys.secretOnce}
        label={t.keys.secretLabel}
        copyLabel={t.keys.copySecret}
        secret={created.secret}
      />
      <Snippet
        label={t.keys.claudeCode}
        text={`claude mcp add --transport http herald ${urls.mcp} --header "X-API-Key: ${created.secret}"`}
      />
    </Dialog>
  );
}

function KeyList() {
  const time = useWorkspaceTime();
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ['api-keys', workspace.id],
    queryFn: () =>
      must(api.GET('/workspaces/{workspace_id}/api-keys', { params: { path: { workspace_id: workspace.id } } })),
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) =>
      must(
        api.DELETE('/workspaces/{workspace_id}/api-keys/{key_id}', {
          params: { path: { workspace_id: workspace.id, key_id: keyId } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
  if (keys.isPending) return <Loading />;
  if (keys.error) return <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  if (keys.data.length === 0) return <Empty title={t.keys.empty} />;
  return (
    <>
      <ErrorText error={revoke.error} />
      <DataTable
        caption={t.keys.listTitle}
        columns={[t.keys.name, t.keys.prefix, t.keys.scope, t.keys.created, t.keys.expires, t.keys.lastUsed, '']}
        actionsLabel={t.keys.actions}
      >
        {keys.data.map((k) => {
          const scope = describeScope(k.scope);
          return (
            <tr key={k.id}>
              <th scope="row">{k.name ?? t.keys.unnamed}</th>
              <td>
                <code>{k.key_prefix}…</code>
              </td>
              <td>{scope.all ? t.keys.allNetworks : (scope.special ?? scope.networks.map(networkName).join(', '))}</td>
              <td>{time.date(k.created_at)}</td>
              <td>{k.expires_at ? time.date(k.expires_at) : t.keys.never}</td>
              <td>{k.last_used_at ? time.dateTime(k.last_used_at) : t.keys.neverUsed}</td>
              <td className="row-actions">
                <ConfirmButton
                  label={t.keys.revoke}
                  confirmLabel={t.keys.confirmRevoke}
                  ariaLabel={t.keys.revokeNamed(k.name ?? k.key_prefix)}
                  busy={revoke.isPending && revoke.variables === k.id}
                  onConfirm={() => revoke.mutate(k.id)}
                />
              </td>
            </tr>
          );
        })}
      </DataTable>
    </>
  );
}

function Instructions() {
  const urls = serverUrls(window.location.origin);
  const key = 'psk_live_…';
  return (
    <section className="analytics-section" aria-labelledby="connect-heading">
      <h2 id="connect-heading">{t.keys.connectTitle}</h2>
      <h3>{t.keys.mcpTitle}</h3>
      <p>{t.keys.mcpText}</p>
      <Snippet label={t.keys.mcpUrl} text={urls.mcp} />
      <Snippet
        label={t.keys.claudeCode}
        text={`claude mcp add --transport http herald ${urls.mcp} --header "X-API-Key: ${key}"`}
      />
      <Snippet
        label={t.keys.mcpJson}
        text={JSON.stringify(
          { mcpServers: { herald: { type: 'http', url: urls.mcp, headers: { 'X-API-Key': key } } } },
          null,
          2,
        )}
      />
      <h3>{t.keys.connectorTitle}</h3>
      <p>{t.keys.connectorText}</p>
      <Snippet label={t.keys.connectorUrl} text={urls.webMcp} />
      <h3>{t.keys.gptTitle}</h3>
      <ol className="steps">
        <li>
          {t.keys.gptImport}
          <Snippet label={t.keys.gptSchema} text={urls.actions} />
        </li>
        <li>{t.keys.gptAuthKey}</li>
        <li>
          {t.keys.gptAuthOauth}
          <Snippet label={t.keys.authorizeUrl} text={urls.authorize} />
          <Snippet label={t.keys.tokenUrl} text={urls.token} />
        </li>
      </ol>
      <p className="hint">{t.keys.httpsNote}</p>
    </section>
  );
}

export default function KeysPage() {
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <>
      <PageHeader title={t.keys.title} />
      <p className="lead">{t.keys.intro}</p>
      <div className="keys-layout">
        <CreateKeyForm onCreated={setCreated} />
        <section aria-labelledby="keys-list-heading">
          <h2 id="keys-list-heading">{t.keys.listTitle}</h2>
          <KeyList />
        </section>
      </div>
      <Instructions />
      {created && <SecretDialog created={created} onClose={() => setCreated(null)} />}
    </>
  );
}
