import { describeEngagementContract } from './engagement-contract.ts';
import { PROFILES } from '../contract/profiles.ts';

describeEngagementContract(PROFILES.threads, { postType: 'text', metrics: ['likes', 'shares', 'impressions'] });
