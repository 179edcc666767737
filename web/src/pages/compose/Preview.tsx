// A card shaped like the network's post: the account, the text as the network keeps it (what goes past its limit is
// shown struck through), and the first picture cropped to the frame the network prefers (GET /unified/platforms).
// The frame is set through the DOM's style object, which the Content-Security-Policy allows (no style attribute).
import { cutText, type TextRule } from '../../compose/count.ts';
import type { PickedMedia } from '../../compose/post.ts';
import { t } from '../../i18n/index.ts';

export function Preview({
  network,
  name,
  account,
  text,
  rule,
  frame,
  media,
}: {
  network: string;
  name: string;
  account: string | undefined;
  text: string;
  rule: TextRule | null;
  /** The picture size the network prefers (its feed crops to that frame); absent: the app's default frame. */
  frame?: { width: number; height: number } | undefined;
  media: PickedMedia[];
}) {
  const kept = rule ? cutText(text, rule.max, rule.unit, rule.maxBytes ?? undefined) : text;
  const cut = text.slice(kept.length);
  const first = media[0];
  return (
    <article className={`preview preview-${network}`} aria-label={t.compose.previewOf(name)}>
      <header className="preview-head">
        <span className="preview-avatar" aria-hidden="true">
          {(account ?? name).slice(0, 1).toUpperCase()}
        </span>
        <span>
          <strong>{account ?? t.compose.you}</strong>
          <span className="preview-network">{name}</span>
        </span>
      </header>
      <p className="preview-text">
        {kept}
        {cut && (
          <del className="preview-cut" title={t.compose.cut}>
            <span className="visually-hidden">{t.compose.cut}: </span>
            {cut}
          </del>
        )}
      </p>
      {first && (
        <div className="preview-media" style={frame ? { aspectRatio: `${frame.width} / ${frame.height}` } : undefined}>
          {first.media_type === 'video' ? (
            <video src={first.public_url} muted preload="metadata" aria-label={first.filename} />
          ) : (
            <img src={first.public_url} alt={first.filename} loading="lazy" />
          )}
          {media.length > 1 && <span className="preview-more">+{media.length - 1}</span>}
        </div>
      )}
    </article>
  );
}
