// The composer's UTM campaign: sent as the post's `utm` (the stored text unchanged), and shown in each network's
// preview with the parameters that network's links will carry (the server's own function, shared).
import { describe, expect, it } from 'vitest';
import { buildPostBody, type ComposerState, emptyComposer, publishedTextFor } from '../../web/src/compose/post.ts';

const state = (o: Partial<ComposerState>): ComposerState => ({ ...emptyComposer(), ...o });

describe('the UTM campaign in the composer', () => {
  it('goes into the body as utm, leaving the text as written', () => {
    const s = state({ text: 'See https://shop.example/x', networks: ['threads'], utmCampaign: ' launch ' });
    expect(buildPostBody(s)).toEqual({
      platforms: ['threads'],
      default_text: 'See https://shop.example/x',
      utm: { campaign: 'launch' },
    });
    expect(buildPostBody({ ...s, utmCampaign: '' })).not.toHaveProperty('utm');
  });

  it('previews each network with its own utm_source', () => {
    const s = state({
      text: 'See https://shop.example/x?a=1#top',
      networks: ['threads', 'linkedin'],
      overrides: { linkedin: 'Pro: https://shop.example/y' },
      utmCampaign: 'launch',
    });
    expect(publishedTextFor(s, 'threads')).toBe(
      'See https://shop.example/x?a=1&utm_source=threads&utm_medium=social&utm_campaign=launch#top',
    );
    expect(publishedTextFor(s, 'linkedin')).toBe(
      'Pro: https://shop.example/y?utm_source=linkedin&utm_medium=social&utm_campaign=launch',
    );
    expect(publishedTextFor({ ...s, utmCampaign: '' }, 'threads')).toBe('See https://shop.example/x?a=1#top');
  });
});
