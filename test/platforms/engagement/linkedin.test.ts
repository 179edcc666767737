import { describeEngagementContract } from './engagement-contract.ts';
import { PROFILES } from '../contract/profiles.ts';

// On an organization page: reading a member's own posts and comments needs r_member_social, which LinkedIn no longer
// grants (linkedin-rules.test.ts holds the member's side). Organization posts have reactions and comments from
// socialMetadata, shares and impressions from the share statistics.
describeEngagementContract(PROFILES.linkedin, {
  postType: 'text',
  metrics: ['likes', 'shares', 'impressions'],
  request: (account) => {
    const org = account.destinations.find((d) => d.kind === 'organization');
    if (!org) throw new Error('the sandbox member administers no organization');
    return { destination: { kind: 'organization', id: org.id } };
  },
});
