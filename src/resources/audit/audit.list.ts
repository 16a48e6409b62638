import { AUDIT_ENTITIES, SETTINGS_ENTITIES } from "../../db/audit";
import { auditLog } from "../../db/schema";
import { defineList } from "../../list";

export const auditList = defineList({
  fields: {
    id: { column: auditLog.id, type: "number", sortable: true },
    at: { column: auditLog.at, type: "datetime", sortable: true, filter: ["$gte", "$lte"] },
    entity: {
      column: auditLog.entity,
      type: [...AUDIT_ENTITIES, ...SETTINGS_ENTITIES],
      filter: [],
    },
    entityId: { column: auditLog.entityId, type: "number", filter: [] },
    entityCode: { column: auditLog.entityCode, type: "text", filter: [] },
    operation: { column: auditLog.operation, type: "text", filter: [] },
    action: { column: auditLog.action, type: auditLog.action.enumValues, filter: [] },
    keyName: { column: auditLog.keyName, type: "text", filter: [] },
    requestId: { column: auditLog.requestId, type: "text", filter: [] },
    correlationId: { column: auditLog.correlationId, type: "text", filter: [] },
  },
});
