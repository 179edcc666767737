import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { fieldError } from '../../api/errors.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { ErrorText } from '../../ui/States.tsx';

/** Bluesky's handle and app password form (POST /unified/oauth/url connects at once, no consent page). */
export function BlueskyDialog({
  open,
  onClose,
  onConnected,
}: {
  open: boolean;
  onClose: () => void;
  onConnected: () => void;
}) {
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const connect = useMutation({
    mutationFn: async () => {
      const res = await must(
        api.POST('/unified/oauth/url', {
          body: { platform: ['bluesky'], handle: handle.trim(), app_password: password.trim() },
        }),
      );
      const result = res.results.bluesky;
      if (!result?.success) throw new Error(result?.message ?? t.errors.unknown);
    },
    onSuccess: () => {
      setPassword('');
      onConnected();
      onClose();
    },
  });
  const close = () => {
    connect.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    connect.mutate();
  };
  return (
    <Dialog
      open={open}
      title={t.connections.blueskyTitle}
      onClose={close}
      actions={
        <>
          <Button onClick={close}>{t.common.cancel}</Button>
          <Button type="submit" form="bluesky-form" variant="primary" busy={connect.isPending}>
            {t.connections.connect}
          </Button>
        </>
      }
    >
      <form id="bluesky-form" onSubmit={submit} noValidate>
        <p>{t.connections.blueskyIntro}</p>
        <TextField
          label={t.connections.handle}
          hint={t.connections.handleHint}
          name="handle"
          autoComplete="username"
          required
          value={handle}
          onChange={(e) => setHandle(e.target.value)}
          error={fieldError(connect.error, 'handle')}
        />
        <TextField
          label={t.connections.appPassword}
          hint={t.connections.appPasswordHint}
          name="app_password"
          type="password"
          autoComplete="off"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(connect.error, 'app_password')}
        />
        <ErrorText error={connect.error} fields={['handle', 'app_password']} />
      </form>
    </Dialog>
  );
}
