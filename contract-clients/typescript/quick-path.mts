// The quick path through openapi-fetch, typed by openapi-typescript from the service's OpenAPI document, with no
// edits: plan, submit, list a page then the next, await, events, a revision planned and applied, a drift check and its
// report, an import refused for a network that does not exist, delete; then a datastore whose config, narrowed by
// the job's kind, reads as a datastore's without a cast, and a job of every kind read back with every field.
// Type-checked strictly, then run by GeneratedClientsTest against `zop serve --demo`: ZOP_URL and ZOP_TOKEN name
// the service and an admin token.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

// no `!`, `?.` or `?? []` on what an answer always carries: the document marks a field nullable only where the
// service may write null (a job's lastFailure, finishedAt), so strict mode accepts this code as written

const client = createClient<paths>({
  baseUrl: process.env.ZOP_URL,
  headers: { Authorization: `Bearer ${process.env.ZOP_TOKEN}` },
});

function check(condition: boolean, what: string): void {
  if (!condition) {
    console.error(`FAILED: ${what}`);
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}

function ok<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) {
    console.error(`FAILED: ${what}: HTTP ${answer.response.status} ${JSON.stringify(answer.error)}`);
    process.exit(1);
  }
  return answer.data;
}

const spaces = ok(await client.GET("/spaces", { params: { query: { limit: 100 } } }), "list spaces").data;
const demo = spaces.filter((s) => s.name === "demo");
check(demo.length === 1, "the demo space is listed");
const spaceID = demo[0].id;

const run = Math.random().toString(16).slice(2, 10);
const body = (n: number) => ({
  spaceID,
  kind: "registry" as const,
  config: { name: `ts-${run}/app-${n}` },
  name: `ts ${n}`,
});

const plan = ok(await client.POST("/provisioning-jobs/plan", { body: body(0) }), "plan").data;
check(plan.steps.length > 0, `plan: ${plan.steps.length} steps`);

const submitted = [];
for (let n = 0; n < 3; n++) {
  const job = ok(await client.POST("/provisioning-jobs", {
    params: { header: { "Idempotency-Key": `ts-${run}-${n}` } },
    body: body(n),
  }), "submit").data;
  submitted.push(job);
}
check(submitted.every((j) => j.id.startsWith("job_")), "submitted 3 jobs");

const first = ok(await client.GET("/provisioning-jobs", {
  params: { query: { spaceID, limit: 2, status: ["pending", "running", "succeeded"] } },
}), "first page");
check(first.data.length === 2 && first.nextCursor !== null, "first page: 2 jobs and a cursor");
check(first.data[0].id === submitted[2].id, "newest first: the job just submitted leads the first page");
const second = ok(await client.GET("/provisioning-jobs", {
  params: { query: { spaceID, limit: 2, cursor: first.nextCursor ?? undefined } },
}), "next page");
check(second.data.length >= 1, `next page: ${second.data.length} job(s)`);
const firstIds = new Set(first.data.map((j) => j.id));
check(second.data.every((j) => !firstIds.has(j.id)), "the pages do not overlap");
const oldest = ok(await client.GET("/provisioning-jobs", {
  params: { query: { spaceID, limit: 500, order: "oldest" } },
}), "oldest first").data;
check(oldest.slice(-3).map((j) => j.id).join() === submitted.map((j) => j.id).join(),
  "order=oldest lists them as submitted");

const done = [];
for (const job of submitted) {
  done.push(ok(await client.GET("/provisioning-jobs/{id}/await", {
    params: { path: { id: job.id }, query: { timeoutMs: 20000 } },
  }), "await").data);
}
check(done.every((j) => j.status === "succeeded"), `awaited: ${done.map((j) => j.status).join(", ")}`);

const events = ok(await client.GET("/provisioning-jobs/{id}/events", {
  params: { path: { id: done[0].id }, query: { after: 0 } },
}), "events").data;
check(events.length > 0 && events.every((e, i) => i === 0 || e.seq > events[i - 1].seq),
  `events: ${events.length}, in order`);

// a revision: the first repository made immutable and scanned, its plan read first
const revisedConfig = { name: `ts-${run}/app-0`, immutableTags: true, scanOnPush: true };
const revisionPlan = ok(await client.POST("/provisioning-jobs/{id}/revisions/plan", {
  params: { path: { id: done[0].id } },
  body: { kind: "registry", config: revisedConfig },
}), "revision plan").data;
const changes = revisionPlan.changes;
check(changes.map((c) => c.field).sort().join() === "immutableTags,scanOnPush"
  && changes.every((c) => c.effect === "in_place"), "revision plan: immutableTags, scanOnPush in place");
const revising = ok(await client.POST("/provisioning-jobs/{id}/revisions", {
  params: { path: { id: done[0].id } },
  body: { kind: "registry", config: revisedConfig },
}), "revise").data;
check(revising.phase === "update", "revision applied: the job updates");
const updated = ok(await client.GET("/provisioning-jobs/{id}/await", {
  params: { path: { id: done[0].id }, query: { timeoutMs: 20000 } },
}), "await revision").data;
check(updated.status === "succeeded", `revised: ${updated.status}`);
const history = ok(await client.GET("/provisioning-jobs/{id}/revisions", {
  params: { path: { id: done[0].id } },
}), "revision history").data;
check(history.map((r) => `${r.number} ${r.status}`).join() === "1 applied,2 applied",
  "revision history: 1 and 2 applied");

const checked = ok(await client.POST("/provisioning-jobs/{id}/drift-checks", {
  params: { path: { id: done[0].id } },
}), "drift check").data;
check(checked.status === "in_sync" && checked.drifts.length === 0 && checked.cloudCalls >= 1,
  `drift check: ${checked.status}, ${checked.cloudCalls} cloud call(s)`);
const kept = ok(await client.GET("/provisioning-jobs/{id}/drift", {
  params: { path: { id: done[0].id } },
}), "drift report").data;
check(kept.status === "in_sync" && kept.checkedAt === checked.checkedAt, "the drift report is kept");
const refused = await client.POST("/provisioning-jobs/import/plan", {
  body: { spaceID, kind: "network", externalID: `vpc-${run}`, config: { name: `ts-${run}`, cidr: "10.0.0.0/16" } },
});
check(refused.response.status === 404, `an import of a network that does not exist: ${refused.response.status}`);

for (const job of done) {
  const teardown = ok(await client.DELETE("/provisioning-jobs/{id}", { params: { path: { id: job.id } } }),
    "delete").data;
  const deleted = ok(await client.GET("/provisioning-jobs/{id}/await", {
    params: { path: { id: teardown.id }, query: { timeoutMs: 20000 } },
  }), "await teardown").data;
  check(deleted.status === "deleted", `${job.id} torn down: ${deleted.status}`);
}

// a job's kind says which spec its config is: narrowed by it, a datastore's fields read without a cast
const datastore = ok(await client.POST("/provisioning-jobs", {
  body: { spaceID, kind: "datastore", config: { name: `ts-${run}-db`, engine: "postgres", version: "16.3",
    instanceClass: "db.t3.medium", allocatedStorageGB: 20 } },
}), "submit a datastore").data;
const read = ok(await client.GET("/provisioning-jobs/{id}", { params: { path: { id: datastore.id } } }),
  "read the datastore back").data;
if (read.kind === "datastore") {
  check(read.config.engine === "postgres" && read.config.instanceClass === "db.t3.medium"
    && read.config.allocatedStorageGB === 20, `datastore config read back as a datastore's: ${read.config.engine}`);
} else {
  check(false, `the datastore came back as ${read.kind}`);
}

// a job of every kind, every field given: each comes back as its own kind, with every field it was sent; the
// bodies are typed by the generated schema (a field it does not know would not compile)
type Submit = paths["/provisioning-jobs"]["post"]["requestBody"]["content"]["application/json"];
const everyKind: Submit[] = [
  { spaceID, kind: "kubernetes", config: { name: `ts-${run}-k8s`, version: "1.30", clusterRole: `ts-${run}-role`,
    nodeGroups: [{ name: "default", instanceType: "m5.large", min: 1, max: 2 }] } },
  { spaceID, kind: "vm_pool", config: { name: `ts-${run}-pool`, instanceType: "m5.large", min: 1, max: 2,
    createLoadBalancer: true, loadBalancerType: "application", listenerPorts: [80] } },
  { spaceID, kind: "datastore", config: { name: `ts-${run}-every-db`, engine: "postgres", version: "16.3",
    instanceClass: "db.t3.medium", allocatedStorageGB: 20, multiAZ: true, backupRetentionDays: 7 } },
  { spaceID, kind: "network", config: { name: `ts-${run}-net`, cidr: "10.41.0.0/16",
    subnets: [{ name: "a", cidr: "10.41.1.0/24" }] } },
  { spaceID, kind: "registry", config: { name: `ts-${run}/every-kind`, immutableTags: true, scanOnPush: true } },
  { spaceID, kind: "load_balancer", config: { name: `ts-${run}-lb`, type: "network", listenerPorts: [443] } },
  { spaceID, kind: "component", config: { componentID: "kong", namespace: `ts-${run}-every`,
    values: { "proxy.type": "NodePort" } } },
];

/** Whether every field of {@code sent} is in {@code read} with the same value (read may hold more: defaults). */
function sentIsIn(sent: unknown, read: unknown): boolean {
  if (Array.isArray(sent)) {
    return Array.isArray(read) && read.length === sent.length && sent.every((s, i) => sentIsIn(s, read[i]));
  }
  if (typeof sent === "object" && sent !== null) {
    if (typeof read !== "object" || read === null) {
      return false;
    }
    const fields = new Map(Object.entries(read));
    return Object.entries(sent).every(([key, value]) => sentIsIn(value, fields.get(key)));
  }
  return sent === read;
}

for (const body of everyKind) {
  const made = ok(await client.POST("/provisioning-jobs", { body }), `submit a ${body.kind}`).data;
  const back = ok(await client.GET("/provisioning-jobs/{id}", { params: { path: { id: made.id } } }),
    `read the ${body.kind} back`).data;
  check(back.kind === body.kind && sentIsIn(body.config, back.config),
    `${body.kind}: read back as its own kind, every field (${JSON.stringify(back.config)})`);
}

// the documents' install-component body, free-form values and all, type-checks as written; a refusal's envelope
// always has its error
const install = await client.POST("/provisioning-jobs/install-component", {
  body: { spaceID, componentID: "kong", namespace: `ts-${run}`, values: { "proxy.type": "NodePort", replicaCount: 2 } },
});
const installed = ok(install, "install kong").data;
check(installed.kind === "component", `install-component: a ${installed.kind} job`);
const unknown = await client.POST("/provisioning-jobs/install-component", {
  body: { spaceID, componentID: "no-such-component" },
});
check(unknown.error !== undefined && unknown.error.error.code === "validation_failed",
  `an unknown component is refused: ${unknown.error?.error.code}`);

// a guardrail made from its JSON body, its verdict on a plan, and its deny: a 422 naming it and the field at fault
const guardrail = ok(await client.POST("/guardrails", {
  body: { name: `ts-${run}-sizes`, level: "deny", rule: { type: "allowed_sizes", sizes: ["t3.small"] },
    scope: { spaces: [spaceID], providers: [], kinds: ["vm_pool"] } },
}), "create a guardrail").data;
check(guardrail.version === 1 && guardrail.rule.type === "allowed_sizes",
  `a guardrail made: ${guardrail.name} v${guardrail.version}, ${guardrail.rule.type}`);
const pool: Submit = { spaceID, kind: "vm_pool", config: { name: `ts-${run}-big`, instanceType: "m5.large", min: 1,
  max: 2 } };
const planned = ok(await client.POST("/provisioning-jobs/plan", { body: pool }), "plan under a guardrail").data;
check(planned.verdicts.length === 1 && planned.verdicts[0].outcome === "denied"
  && planned.verdicts[0].field === "config.instanceType", `the plan's verdict: ${JSON.stringify(planned.verdicts)}`);
const denied = await client.POST("/provisioning-jobs", { body: pool });
const refusal = denied.error?.error;
check(denied.response.status === 422 && refusal !== undefined && refusal.code === "guardrail_denied"
  && refusal.fields?.[0]?.field === "config.instanceType" && refusal.verdicts?.[0]?.guardrailId === guardrail.id,
  `the submit refused: ${denied.response.status} ${JSON.stringify(refusal)}`);
const gone = ok(await client.DELETE("/guardrails/{id}", { params: { path: { id: guardrail.id } } }),
  "delete the guardrail").data;
check(gone.deleted && gone.version === 2, `the guardrail deleted at version ${gone.version}`);
console.log("typescript quick path: ok");
