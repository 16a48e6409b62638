import type { AppRouteHandler } from "../../http/router";
import { claimSimulation } from "../simulations/simulations.service";
import { toChangeRequestSummary } from "./change-requests.answers";
import { approvePolicy, putPolicy as writePolicy, toPolicyState } from "./change-requests.policy";
import { listChangeRequests, readPolicy } from "./change-requests.repo";
import type * as routes from "./change-requests.routes";
import {
  answerOf,
  approveChangeRequest,
  cancelChangeRequest,
  createChangeRequest,
  rejectChangeRequest,
  submitChangeRequest,
  updateChangeRequest,
  withdrawChangeRequest,
} from "./change-requests.service";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const page = await listChangeRequests(c.var.db, c.var.list);
  const data = page.rows.map(({ row, itemCount }) =>
    toChangeRequestSummary(row, itemCount, c.var.keyOwner),
  );
  return c.json(c.var.list.envelope(data, page.total), 200);
};

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const row = await createChangeRequest(c.var.db, c.req.valid("json"), c.var.keyOwner);
  return c.json(await answerOf(c.var.db, row.id, c.var.keyOwner), 201);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(await answerOf(c.var.db, c.req.valid("param").id, c.var.keyOwner), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  await updateChangeRequest(c.var.db, id, c.req.valid("json"), c.var.keyOwner);
  return c.json(await answerOf(c.var.db, id, c.var.keyOwner), 200);
};

export const getPolicy: AppRouteHandler<typeof routes.getPolicy> = async (c) =>
  c.json(toPolicyState(await readPolicy(c.var.db), c.var.keyOwner), 200);

export const putPolicy: AppRouteHandler<typeof routes.putPolicy> = async (c) => {
  const { row, applied } = await writePolicy(c.var.db, c.req.valid("json"), c.var.keyOwner);
  const state = toPolicyState(row, c.var.keyOwner);
  return applied ? c.json(state, 200) : c.json(state, 202);
};

export const approveProposedPolicy: AppRouteHandler<typeof routes.approvePolicy> = async (c) => {
  const row = await approvePolicy(c.var.db, c.req.valid("json"), c.var.keyOwner);
  return c.json(toPolicyState(row, c.var.keyOwner), 200);
};

/** The impact is a publish simulation: it holds one of the key's places while it runs. */
export const submit: AppRouteHandler<typeof routes.submit> = async (c) => {
  const release = claimSimulation(c.var.keyName);
  try {
    const id = await submitChangeRequest(c.var.db, c.req.valid("param").id);
    return c.json(await answerOf(c.var.db, id, c.var.keyOwner), 200);
  } finally {
    release();
  }
};

/**
 * Approve computes the impact again (stale detection, docs/api/change-requests.md §17.5): a place
 * too.
 */
export const approve: AppRouteHandler<typeof routes.approve> = async (c) => {
  const release = claimSimulation(c.var.keyName);
  try {
    const id = await approveChangeRequest(c.var.db, c.req.valid("param").id, c.var.keyOwner);
    return c.json(await answerOf(c.var.db, id, c.var.keyOwner), 200);
  } finally {
    release();
  }
};

export const reject: AppRouteHandler<typeof routes.reject> = async (c) => {
  const { id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  await rejectChangeRequest(c.var.db, id, reason, c.var.keyOwner);
  return c.json(await answerOf(c.var.db, id, c.var.keyOwner), 200);
};

export const withdraw: AppRouteHandler<typeof routes.withdraw> = async (c) => {
  const id = await withdrawChangeRequest(c.var.db, c.req.valid("param").id);
  return c.json(await answerOf(c.var.db, id, c.var.keyOwner), 200);
};

export const cancel: AppRouteHandler<typeof routes.cancel> = async (c) => {
  const id = await cancelChangeRequest(c.var.db, c.req.valid("param").id);
  return c.json(await answerOf(c.var.db, id, c.var.keyOwner), 200);
};
