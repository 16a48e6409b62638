-- Audit triggers of the webhooks table (docs/api/feed-and-webhooks.md §11, §14.3), written by hand:
-- the generator (scripts/audit-triggers.mjs) leaves the table out (NOT_AUDITED in
-- src/db/schema/audited.ts) because its row holds the signing secrets. These record a webhook's
-- creation, changes, secret rotations and deletion, under the entity `webhook`, with its settings
-- only: never `secret` nor `previous_secret` (a rotation shows as `previousSecretExpiresAt` moving,
-- under the operation rotateWebhookSecret), and not the delivery state (cursor, failures, lease,
-- ...), which the queue consumer moves without an audit context and so without entries. An UPDATE
-- fires when a setting or the secret changed. The change feed leaves `webhook` out: it is no
-- pricing data (src/feed/read.ts). test/feed/audit.test.ts checks that no secret reaches the audit
-- trail.
DROP TRIGGER IF EXISTS `audit_webhooks_insert`;--> statement-breakpoint
CREATE TRIGGER `audit_webhooks_insert` AFTER INSERT ON `webhooks`
  WHEN EXISTS (SELECT 1 FROM audit_context) BEGIN
  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)
  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, 'webhook', NEW.id, NULL,
    json_object('id', NEW.id),
    'INSERT',
    NULL,
    json_object('id', NEW.id, 'url', NEW.url, 'events', json(NEW.events), 'active', json(CASE WHEN NEW.active IS NULL THEN 'null' WHEN NEW.active THEN 'true' ELSE 'false' END), 'pausedAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.paused_at / 1000.0, 'unixepoch'), 'previousSecretExpiresAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.previous_secret_expires_at / 1000.0, 'unixepoch'), 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at / 1000.0, 'unixepoch'), 'updatedAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at / 1000.0, 'unixepoch'))
  FROM audit_context c;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhooks_update`;--> statement-breakpoint
CREATE TRIGGER `audit_webhooks_update` AFTER UPDATE ON `webhooks`
  WHEN EXISTS (SELECT 1 FROM audit_context) AND (OLD.url IS NOT NEW.url OR OLD.events IS NOT NEW.events OR OLD.active IS NOT NEW.active OR OLD.paused_at IS NOT NEW.paused_at OR OLD.secret IS NOT NEW.secret OR OLD.previous_secret_expires_at IS NOT NEW.previous_secret_expires_at OR OLD.updated_at IS NOT NEW.updated_at) BEGIN
  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)
  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, 'webhook', NEW.id, NULL,
    json_object('id', NEW.id),
    'UPDATE',
    json_object('id', OLD.id, 'url', OLD.url, 'events', json(OLD.events), 'active', json(CASE WHEN OLD.active IS NULL THEN 'null' WHEN OLD.active THEN 'true' ELSE 'false' END), 'pausedAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.paused_at / 1000.0, 'unixepoch'), 'previousSecretExpiresAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.previous_secret_expires_at / 1000.0, 'unixepoch'), 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.created_at / 1000.0, 'unixepoch'), 'updatedAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.updated_at / 1000.0, 'unixepoch')),
    json_object('id', NEW.id, 'url', NEW.url, 'events', json(NEW.events), 'active', json(CASE WHEN NEW.active IS NULL THEN 'null' WHEN NEW.active THEN 'true' ELSE 'false' END), 'pausedAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.paused_at / 1000.0, 'unixepoch'), 'previousSecretExpiresAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.previous_secret_expires_at / 1000.0, 'unixepoch'), 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at / 1000.0, 'unixepoch'), 'updatedAt', strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at / 1000.0, 'unixepoch'))
  FROM audit_context c;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `audit_webhooks_delete`;--> statement-breakpoint
CREATE TRIGGER `audit_webhooks_delete` AFTER DELETE ON `webhooks`
  WHEN EXISTS (SELECT 1 FROM audit_context) BEGIN
  INSERT INTO audit_log (at, request_id, correlation_id, key_name, operation, method, path, entity, entity_id, entity_code, entity_key, action, before, after)
  SELECT c.at, c.request_id, c.correlation_id, c.key_name, c.operation, c.method, c.path, 'webhook', OLD.id, NULL,
    json_object('id', OLD.id),
    'DELETE',
    json_object('id', OLD.id, 'url', OLD.url, 'events', json(OLD.events), 'active', json(CASE WHEN OLD.active IS NULL THEN 'null' WHEN OLD.active THEN 'true' ELSE 'false' END), 'pausedAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.paused_at / 1000.0, 'unixepoch'), 'previousSecretExpiresAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.previous_secret_expires_at / 1000.0, 'unixepoch'), 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.created_at / 1000.0, 'unixepoch'), 'updatedAt', strftime('%Y-%m-%dT%H:%M:%fZ', OLD.updated_at / 1000.0, 'unixepoch')),
    NULL
  FROM audit_context c;
END;
