// Webhooks' public face (docs/webhooks.md): endpoints, deliveries, the worker, and what they need of the outbox.
export type { EventFeed, OutboxEvent } from './feed.ts';
export {
  endpointView,
  ROTATION_OVERLAP_MS,
  WebhookEndpoints,
  type EndpointRow,
  type EndpointView,
} from './endpoints.ts';
export { DeliveryStore, type DeliveryStatus } from './deliveries.ts';
export { WebhookSender } from './sender.ts';
export { WebhookWorker, WEBHOOK_QUEUE } from './worker.ts';
export { TEST_EVENT, WebhookService, type DeliveryView } from './service.ts';
export { signDelivery, SECRET_PREFIX } from './signing.ts';
export { nextAttemptAt } from './schedule.ts';
