// Connections: every network of this server, what is connected, its token health, connect / reconnect / disconnect.
// OAuth networks go to their consent page and come back to /connections?platform=…&status=…&message=…;
// Bluesky connects here with a handle and an app password.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, must } from '../../api/client.ts';
import {
  daysUntil,
  destinationsOf,
  networkName,
  type ProfileSlice,
  useConnectionStatus,
  useProfiles,
} from '../../api/networks.ts';
import { usePlatforms } from '../../api/platforms.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import { BlueskyDialog } from './BlueskyDialog.tsx';
import './connections.css';

export default function Connections() {
  const { workspace } = useWorkspace();
  const status = useConnectionStatus();
  const profiles = useProfiles();
  const platforms = usePlatforms();
  const info = (slug: string) => platforms.data?.platforms.find((p) => p.slug === slug);
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const [bluesky, setBluesky] = useState(false);
  const [disconnecting, setDisconnecting] = useState<string>();

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['connections', workspace.id] });

  const connect = useMutation({
    mutationFn: async (platform: string) => {
      const res = await must(api.POST('/unified/oauth/url', { body: { platform: [platform] } }));
      const result = res.results[platform];
      if (!result?.success || !result.auth_url) throw new Error(result?.message ?? t.errors.unknown);
      return result.auth_url;
    },
    onSuccess: (url) => window.location.assign(url),
  });

  const disconnect = useMutation({
    mutationFn: async (platform: string) => {
      const res = await must(api.DELETE('/unified/oauth/token', { params: { query: { platform } } }));
      const result = res.results[platform];
      if (result && !result.success) throw new Error(result.message);
    },
    onSuccess: async () => {
      setDisconnecting(undefined);
      await refresh();
    },
  });

  const forceRefresh = useMutation({
    mutationFn: () => must(api.GET('/unified/user-profiles', { params: { query: { force_refresh: 'true' } } })),
    onSuccess: (data) => queryClient.setQueryData(['connections', workspace.id, 'profiles'], data),
  });

  const resultPlatform = search.get('platform');
  const resultStatus = search.get('status');
  const dismissResult = () => setSearch({}, { replace: true });

  const start = (platform: string) => {
    // Networks connected with a form here (a handle and an app password) rather than a consent page.
    if (info(platform)?.auth_kind === 'app_password') setBluesky(true);
    else connect.mutate(platform);
  };

  return (
    <>
      <PageHeader title={t.nav.connections}>
        <Button onClick={() => forceRefresh.mutate()} busy={forceRefresh.isPending}>
          {t.connections.refresh}
        </Button>
      </PageHeader>
      <p className="muted">{t.connections.intro}</p>
      {resultPlatform && resultStatus && (
        <div
          className={`notice ${resultStatus === 'success' ? 'notice-success' : 'notice-error'}`}
          role={resultStatus === 'success' ? 'status' : 'alert'}
        >
          <p>
            <strong>
              {resultStatus === 'success'
                ? t.connections.resultSuccess(networkName(resultPlatform))
                : t.connections.resultError(networkName(resultPlatform))}
            </strong>{' '}
            {search.get('message')}
          </p>
          <Button variant="ghost" onClick={dismissResult}>
            {t.common.close}
          </Button>
        </div>
      )}
      <ErrorText error={connect.error ?? forceRefresh.error} />
      <QueryView query={status}>
        {(s) => {
          const slugs = Object.keys(s.results);
          if (!slugs.length) return <Empty title={t.connections.none} />;
          return (
            <ul className="network-grid">
              {slugs.map((slug) => (
                <NetworkCard
                  key={slug}
                  slug={slug}
                  connected={Boolean(s.results[slug]?.connected)}
                  configured={info(slug)?.configured ?? true}
                  slice={profiles.data?.[slug] ?? null}
                  profilesPending={profiles.isPending}
                  busy={connect.isPending && connect.variables === slug}
                  onConnect={() => start(slug)}
                  onDisconnect={() => setDisconnecting(slug)}
                />
              ))}
            </ul>
          );
        }}
      </QueryView>
      {profiles.error && <ErrorText error={profiles.error} />}
      <BlueskyDialog open={bluesky} onClose={() => setBluesky(false)} onConnected={refresh} />
      <Dialog
        open={disconnecting !== undefined}
        title={t.connections.disconnectTitle(networkName(disconnecting ?? ''))}
        onClose={() => {
          setDisconnecting(undefined);
          disconnect.reset();
        }}
        actions={
          <>
            <Button onClick={() => setDisconnecting(undefined)}>{t.common.cancel}</Button>
            <Button
              variant="danger"
              busy={disconnect.isPending}
              onClick={() => disconnecting && disconnect.mutate(disconnecting)}
            >
              {t.connections.disconnect}
            </Button>
          </>
        }
      >
        <p>{t.connections.disconnectBody}</p>
        <ErrorText error={disconnect.error} />
      </Dialog>
    </>
  );
}

interface CardProps {
  slug: string;
  connected: boolean;
  /** Whether this server has the network's app credentials (else it cannot connect it). */
  configured: boolean;
  slice: ProfileSlice | null;
  profilesPending: boolean;
  busy: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
}

function NetworkCard({
  slug,
  connected,
  configured,
  slice,
  profilesPending,
  busy,
  onConnect,
  onDisconnect,
}: CardProps) {
  const name = networkName(slug);
  const conn = slice?.connection;
  const needsReconnect = Boolean(conn?.needs_reconnect);
  const days = conn?.expires_at ? daysUntil(conn.expires_at) : undefined;
  const destinations = destinationsOf(slice);
  const headingId = `network-${slug}`;
  return (
    <li className="card network-card" aria-labelledby={headingId} data-network={slug}>
      <div className="network-head">
        <h2 id={headingId}>{name}</h2>
        {needsReconnect ? (
          <span className="badge badge-danger">{t.connections.needsReconnect}</span>
        ) : connected ? (
          <span className="badge badge-success">{t.connections.connected}</span>
        ) : (
          <span className="badge">{t.connections.notConnected}</span>
        )}
      </div>
      {connected && conn && (
        <dl className="network-facts">
          <dt>{t.connections.account}</dt>
          <dd>{conn.display_name ?? conn.platform_user_id}</dd>
          {days !== undefined && (
            <>
              <dt>{t.connections.access}</dt>
              <dd className={days < 14 ? 'expiry-warning' : 'muted'}>
                {days < 0 ? t.connections.expired : t.connections.expiresIn(days)}
              </dd>
            </>
          )}
        </dl>
      )}
      {conn?.status_reason && <p className="network-reason">{conn.status_reason}</p>}
      {slice?.error && <p className="network-reason">{t.connections.refreshError}</p>}
      {connected && destinations.length > 0 && (
        <div>
          <h3>{t.connections.destinations}</h3>
          <ul className="destination-list">
            {destinations.map((d) => (
              <li key={`${d.kind}:${d.id}`}>
                <span className="muted">{t.connections.destinationKinds[d.kind] ?? d.kind}</span> {d.name}
              </li>
            ))}
          </ul>
        </div>
      )}
      {connected && profilesPending && <p className="muted">{t.common.loading}</p>}
      <div className="network-actions">
        {!connected && !configured ? (
          <p className="muted">{t.connections.notConfigured}</p>
        ) : !connected ? (
          <Button variant="primary" busy={busy} onClick={onConnect} aria-label={t.connections.connectTo(name)}>
            {t.connections.connect}
          </Button>
        ) : (
          <>
            <Button
              variant={needsReconnect ? 'primary' : 'secondary'}
              busy={busy}
              onClick={onConnect}
              aria-label={t.connections.reconnectTo(name)}
            >
              {t.connections.reconnect}
            </Button>
            <Button variant="danger" onClick={onDisconnect} aria-label={t.connections.disconnectTo(name)}>
              {t.connections.disconnect}
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
