// A sample post of each type for one network, as the contract suites publish it: fixture media served by the test
// sandbox, the network-specific part of the request from its profile, and publishing that moves the sandbox clock
// on while the network is still processing.
import type {
  PostType,
  PublishMedia,
  PublishOutcome,
  PublishRequest,
  Publisher,
} from '../../../src/platforms/publishing.ts';
import type { AccountIdentity, TokenSet } from '../../../src/platforms/types.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { fixtureMedia, jpegImage, mp4Video } from '../helpers/publish-fixtures.ts';
import type { MemoryJournal } from '../helpers/publish-fixtures.ts';
import type { ContractProfile } from './profiles.ts';

export async function sampleMedia(sb: TestSandbox, postType: PostType): Promise<PublishMedia[]> {
  const image = async (name: string) =>
    fixtureMedia(sb, {
      name,
      bytes: await jpegImage(800, 600),
      kind: 'image',
      mime: 'image/jpeg',
      format: 'jpeg',
      width: 800,
      height: 600,
      altText: 'A picture',
    });
  if (postType === 'image') return [await image('one.jpg')];
  if (postType === 'carousel') return [await image('one.jpg'), await image('two.jpg')];
  if (postType === 'video') {
    const bytes = await mp4Video({ width: 720, height: 1280, durationSec: 8 });
    return [
      fixtureMedia(sb, {
        name: 'clip.mp4',
        bytes,
        kind: 'video',
        mime: 'video/mp4',
        format: 'mp4',
        width: 720,
        height: 1280,
        durationSec: 8,
      }),
    ];
  }
  return [];
}

export async function sampleRequest(
  sb: TestSandbox,
  profile: ContractProfile,
  account: AccountIdentity,
  postType: PostType,
  text = `Contract ${postType} post`,
  targetId = `tgt_${profile.slug}_${postType}`,
): Promise<PublishRequest> {
  const base = { postType, text, media: await sampleMedia(sb, postType), options: {}, targetId };
  return { ...base, ...profile.request(account, postType) };
}

/** Publishes and, while the network is processing, moves the sandbox clock on and asks again. */
export async function publishThrough(
  sb: TestSandbox,
  publisher: Publisher,
  tokens: () => TokenSet,
  req: PublishRequest,
  journal: MemoryJournal,
): Promise<PublishOutcome> {
  let out = await publisher.publish(tokens(), req, journal);
  for (let round = 0; out.state === 'processing' && round < 20; round++) {
    sb.advance(61);
    out = await publisher.checkStatus!(tokens(), out.handle, req, journal);
  }
  return out;
}
