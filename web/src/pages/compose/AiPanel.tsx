// The composer's AI help: copy from an idea (POST /unified/content/generate), an image from the text (POST
// /unified/image/generate) and copy from the post's media (POST /unified/image-to-content/generate or
// /unified/video-to-content/generate). Each button says what it costs; the plan's AI credits left come from GET
// /billing/usage. Errors (402 not enough credits, 403 plan) show in the API's words beside the buttons.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { useWorkspace } from '../../app/session.tsx';
import {
  AI_COSTS,
  applyCopies,
  failuresOf,
  type GeneratedImage,
  type PerNetwork,
  sourceMedium,
  withImage,
} from '../../compose/ai.ts';
import { type ComposerState, textFor } from '../../compose/post.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { ErrorText } from '../../ui/States.tsx';

type Kind = 'copy' | 'image' | 'media';

export function AiPanel({
  state,
  networks,
  nameOf,
  update,
}: {
  state: ComposerState;
  /** The chosen (connected) networks. */
  networks: string[];
  nameOf: (slug: string) => string;
  update: (change: (s: ComposerState) => ComposerState) => void;
}) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [idea, setIdea] = useState('');
  const headingId = useId();
  const usage = useQuery({ queryKey: ['usage', workspace.id], queryFn: () => must(api.GET('/billing/usage')) });
  const left = usage.data?.remaining.ai_credits;
  const medium = sourceMedium(state.media);

  const run = useMutation({
    mutationFn: async (kind: Kind): Promise<{ message: string; failed: { network: string; error: string }[] }> => {
      if (kind === 'copy') {
        const r = await must(api.POST('/unified/content/generate', { body: { idea, platforms: networks } }));
        update((s) => applyCopies(s, r.data, networks));
        return { message: r.message, failed: failuresOf(r.data) };
      }
      if (kind === 'image') {
        // One image for the post, drawn for the first chosen network (its size and format).
        const network = networks[0]!;
        const r = await must(
          api.POST('/unified/image/generate', { body: { content: textFor(state, network), platforms: [network] } }),
        );
        const data = r.data as PerNetwork<GeneratedImage>;
        const image = data[network];
        if (image && 'media_id' in image)
          update((s) => ({ ...s, media: withImage(s.media, image, t.compose.ai.imageName(nameOf(network))) }));
        return { message: r.message, failed: failuresOf(data) };
      }
      const m = medium!;
      const query = { platform: 'all', target_platforms: networks };
      const r =
        m.media_type === 'video'
          ? await must(api.POST('/unified/video-to-content/generate', { body: { ...query, video_url: m.public_url } }))
          : await must(api.POST('/unified/image-to-content/generate', { body: { ...query, image_url: m.public_url } }));
      const data = r.data as PerNetwork<{ content: string }>;
      update((s) => applyCopies(s, data, networks));
      return { message: r.message, failed: failuresOf(data) };
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['usage', workspace.id] });
      void queryClient.invalidateQueries({ queryKey: ['media', workspace.id] });
    },
  });
  const busy = (k: Kind) => run.isPending && run.variables === k;
  const none = networks.length === 0;

  return (
    <section className="ai-panel card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.compose.ai.title}</h2>
      <p className="muted" role="status">
        {left === undefined ? '' : left === null ? t.compose.ai.unlimited : t.compose.ai.creditsLeft(left)}
      </p>
      <Field label={t.compose.ai.idea} hint={t.compose.ai.ideaHint}>
        {(c) => <textarea {...c} rows={3} value={idea} onChange={(e) => setIdea(e.target.value)} />}
      </Field>
      <div className="row">
        <Button busy={busy('copy')} disabled={none || !idea.trim()} onClick={() => run.mutate('copy')}>
          {t.compose.ai.writeCopy(AI_COSTS.copy, networks.length)}
        </Button>
        <Button
          busy={busy('image')}
          disabled={none || !textFor(state, networks[0] ?? '').trim()}
          onClick={() => run.mutate('image')}
        >
          {t.compose.ai.makeImage(AI_COSTS.image)}
        </Button>
        <Button busy={busy('media')} disabled={none || !medium} onClick={() => run.mutate('media')}>
          {t.compose.ai.copyFromMedia(AI_COSTS.copy, networks.length)}
        </Button>
      </div>
      {none && <p className="muted">{t.compose.ai.chooseNetwork}</p>}
      <ErrorText error={run.error} />
      {run.data && (
        <div role="status">
          <p className="muted">{t.compose.ai.done(run.data.message)}</p>
          {run.data.failed.map((f) => (
            <p key={f.network} className="field-error">
              {nameOf(f.network)}: {f.error}
            </p>
          ))}
        </div>
      )}
    </section>
  );
}
