import { PROFILES } from '../contract/profiles.ts';
import { describeEngagementContract } from './engagement-contract.ts';

// Bluesky counts likes, replies, reposts and quotes (shares = reposts + quotes); it has no impression counts.
describeEngagementContract(PROFILES.bluesky, { postType: 'text', metrics: ['likes', 'shares'] });
