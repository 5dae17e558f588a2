"""The quick path through a Python client that openapi-generator made from the service's OpenAPI document, with
no edits: plan, submit, list a page then the next, await, events, a revision planned and applied, a drift check and
its report, an import refused for a network that does not exist, delete; then a job of every kind whose config comes
back as that kind's, every field sent read back. Run by GeneratedClientsTest against
`zop serve --demo`: ZOP_URL and ZOP_TOKEN name the service and an admin token of the demo organisation."""
import os
import sys
import uuid

import zop_client
from zop_client.api.guardrails_api import GuardrailsApi
from zop_client.api.jobs_api import JobsApi
from zop_client.api.spaces_api import SpacesApi
from zop_client.models.registry_spec import RegistrySpec
from zop_client.exceptions import ApiException, NotFoundException
from zop_client.models.guardrail_request import GuardrailRequest
from zop_client.models.import_job import ImportJob
from zop_client.models.revise_datastore_job import ReviseDatastoreJob
from zop_client.models.revise_job import ReviseJob
from zop_client.models.revise_registry_job import ReviseRegistryJob
from zop_client.models.submit_job import SubmitJob


def main():
    config = zop_client.Configuration(host=os.environ["ZOP_URL"], access_token=os.environ["ZOP_TOKEN"])
    with zop_client.ApiClient(config) as api:
        spaces = SpacesApi(api)
        jobs = JobsApi(api)

        demo = [s for s in spaces.list_spaces(limit=100).data if s.name == "demo"]
        check(len(demo) == 1, "the demo space is listed")
        space = demo[0].id

        run = uuid.uuid4().hex[:8]
        body = lambda n: SubmitJob.from_dict(
            {"spaceID": space, "kind": "registry", "config": {"name": f"py-{run}/app-{n}"}, "name": f"py {n}"})

        # a job is one of a job per kind (its kind says which): the generated wrapper holds it as actual_instance
        plan = jobs.plan_job(body(0)).data
        check(len(plan.steps) > 0, f"plan: {len(plan.steps)} steps")

        submitted = [jobs.submit_job(body(n), idempotency_key=f"py-{run}-{n}").data.actual_instance for n in range(3)]
        check(all(j.id.startswith("job_") for j in submitted), "submitted 3 jobs")

        first = jobs.list_jobs(space_id=space, limit=2, status=["pending", "running", "succeeded"])
        first_jobs = [j.actual_instance for j in first.data]
        check(len(first_jobs) == 2 and first.next_cursor is not None, "first page: 2 jobs and a cursor")
        check(first_jobs[0].id == submitted[2].id, "newest first: the job just submitted leads the first page")
        second = [j.actual_instance for j in jobs.list_jobs(space_id=space, limit=2, cursor=first.next_cursor).data]
        check(len(second) >= 1, f"next page: {len(second)} job(s)")
        check(not {j.id for j in first_jobs} & {j.id for j in second}, "the pages do not overlap")
        oldest = [j.actual_instance for j in jobs.list_jobs(space_id=space, limit=500, order="oldest").data]
        check([j.id for j in oldest][-3:] == [j.id for j in submitted], "order=oldest lists them as submitted")

        done = [jobs.await_job(j.id, timeout_ms=20000).data.actual_instance for j in submitted]

        # a conditional read: the generator raises ApiException for every status outside 2xx, 304 too, so an
        # If-None-Match read goes through the call that hands back the response as it came
        first_read = jobs.get_job_with_http_info(done[0].id)
        etag = first_read.headers["ETag"]
        unchanged = jobs.get_job_without_preload_content(done[0].id, if_none_match=etag)
        check(unchanged.status == 304 and unchanged.data == b"", f"If-None-Match {etag}: 304, no body")
        check(all(j.status == "succeeded" for j in done), "awaited: " + ", ".join(j.status for j in done))

        events = jobs.list_job_events(done[0].id, after=0).data
        check(len(events) > 0 and [e.seq for e in events] == sorted(e.seq for e in events),
              f"events: {len(events)}, in order")

        # a revision: the first repository made immutable and scanned, its plan read first (the generator names a
        # change's field and from var_field and var_from: both are reserved in Python)
        revised = ReviseJob(ReviseRegistryJob(kind="registry", config=RegistrySpec(
            name=f"py-{run}/app-0", immutable_tags=True, scan_on_push=True)))
        changes = jobs.plan_job_revision(done[0].id, revised).data.changes
        check(sorted(c.var_field for c in changes) == ["immutableTags", "scanOnPush"]
              and all(c.effect == "in_place" for c in changes), "revision plan: immutableTags, scanOnPush in place")
        check(jobs.revise_job(done[0].id, revised).data.actual_instance.phase == "update",
              "revision applied: the job updates")
        updated = jobs.await_job(done[0].id, timeout_ms=20000).data.actual_instance
        check(updated.status == "succeeded", f"revised: {updated.status}")
        history = jobs.list_job_revisions(done[0].id).data
        check([(r.actual_instance.number, r.actual_instance.status) for r in history] == [(1, "applied"),
                                                                                       (2, "applied")],
              "revision history: 1 and 2 applied")

        checked = jobs.check_job_drift(done[0].id).data
        check(checked.status == "in_sync" and checked.drifts == [] and checked.cloud_calls >= 1,
              f"drift check: {checked.status}, {checked.cloud_calls} cloud call(s)")
        check(type(checked.status).__name__ == "DriftReportStatus"
              and type(history[0].actual_instance.status).__name__ == "JobRevisionStatus",
              "statuses are named enums: DriftReportStatus, JobRevisionStatus")
        kept = jobs.get_job_drift(done[0].id).data
        check(kept.status == "in_sync" and kept.checked_at == checked.checked_at, "the drift report is kept")

        try:
            jobs.plan_job_import(ImportJob.from_dict({"spaceID": space, "kind": "network", "externalID": f"vpc-{run}",
                                                      "config": {"name": f"py-{run}", "cidr": "10.0.0.0/16"}}))
            check(False, "an import of a network that does not exist is refused")
        except NotFoundException as e:
            check('"not_found"' in e.body, "an import of a network that does not exist: 404 not_found")

        for job in done:
            teardown = jobs.delete_job(job.id).data.actual_instance
            deleted = jobs.await_job(teardown.id, timeout_ms=20000).data.actual_instance
            check(deleted.status == "deleted", f"{job.id} torn down: {deleted.status}")

        every_kind(jobs, space, run)
        guardrails(GuardrailsApi(api), jobs, space, run)
    print("python quick path: ok")


def guardrails(rails, jobs, space, run):
    """A guardrail made from its JSON body (its rule one of the rule kinds), its verdict on a plan, and its deny: a
    422 naming the guardrail and the field at fault."""
    made = rails.create_guardrail(GuardrailRequest.from_dict({
        "name": f"py-{run}-sizes", "level": "deny", "rule": {"type": "allowed_sizes", "sizes": ["t3.small"]},
        "scope": {"spaces": [space], "providers": [], "kinds": ["vm_pool"]}})).data
    rule = made.rule.actual_instance
    check(made.version == 1 and rule.type == "allowed_sizes" and rule.sizes == ["t3.small"],
          f"a guardrail made: {made.name} v{made.version}, {rule.type} {rule.sizes}")
    pool = SubmitJob.from_dict({"spaceID": space, "kind": "vm_pool",
                                "config": {"name": f"py-{run}-big", "instanceType": "m5.large", "min": 1, "max": 2}})
    verdicts = jobs.plan_job(pool).data.verdicts
    check(len(verdicts) == 1 and verdicts[0].outcome == "denied" and verdicts[0].var_field == "config.instanceType",
          f"the plan's verdict: {[(v.name, v.outcome, v.var_field) for v in verdicts]}")
    try:
        jobs.submit_job(pool)
        check(False, "a submit the guardrail denies is refused")
    except ApiException as e:
        check(e.status == 422 and '"guardrail_denied"' in e.body and '"config.instanceType"' in e.body
              and made.id in e.body, f"the submit refused: {e.status}, guardrail_denied, the field and the guardrail")
    gone = rails.delete_guardrail(made.id).data
    check(gone.deleted and gone.version == 2, f"the guardrail deleted at version {gone.version}")


# one config of each kind, every field given: each must come back as its own kind's, no field lost
CONFIGS = {
    "kubernetes": lambda run: {"name": f"py-{run}-k8s", "version": "1.30", "clusterRole": f"py-{run}-role",
                               "nodeGroups": [{"name": "default", "instanceType": "m5.large", "min": 1, "max": 2}]},
    "vm_pool": lambda run: {"name": f"py-{run}-pool", "instanceType": "m5.large", "min": 1, "max": 2,
                            "createLoadBalancer": True, "loadBalancerType": "application", "listenerPorts": [80]},
    "datastore": lambda run: {"name": f"py-{run}-db", "engine": "postgres", "version": "16.3",
                              "instanceClass": "db.t3.medium", "allocatedStorageGB": 20, "multiAZ": True,
                              "backupRetentionDays": 7},
    "network": lambda run: {"name": f"py-{run}-net", "cidr": "10.40.0.0/16",
                            "subnets": [{"name": "a", "cidr": "10.40.1.0/24"}]},
    "registry": lambda run: {"name": f"py-{run}/every-kind", "immutableTags": True, "scanOnPush": True},
    "load_balancer": lambda run: {"name": f"py-{run}-lb", "type": "network", "listenerPorts": [443]},
    "component": lambda run: {"componentID": "kong", "namespace": f"py-{run}", "values": {"proxy.type": "NodePort"}},
}


def every_kind(jobs, space, run):
    for kind, config in CONFIGS.items():
        sent = config(run)
        made = jobs.submit_job(SubmitJob.from_dict({"spaceID": space, "kind": kind, "config": sent})).data
        read = jobs.get_job(made.actual_instance.id).data.actual_instance
        spec = type(read.config).__name__
        back = read.config.to_dict()
        lost = {k: v for k, v in sent.items() if not same(back.get(k), v)}
        check(read.kind == kind and spec.lower() == kind.replace("_", "") + "spec" and not lost,
              f"{kind}: read back as {spec}" + (f", lost {lost} (read {back})" if lost else ", every field"))
        if kind == "datastore":
            read_modify_write(jobs, read)
        if kind == "component":
            # the demo's space names no cluster: the simulated cloud installs the catalog's component itself
            installed = jobs.await_job(read.id, timeout_ms=20000).data.actual_instance
            failure = installed.last_failure.message if installed.last_failure else ""
            check(installed.status == "succeeded", f"a catalog component installed in the demo: {installed.status}"
                  + (f" ({failure})" if failure else ""))


def read_modify_write(jobs, job):
    """The config read back, one field changed, sent as the revision: the plan changes that field alone."""
    done = jobs.await_job(job.id, timeout_ms=20000).data.actual_instance
    check(done.status == "succeeded", f"datastore: {done.status}")
    done.config.backup_retention_days = 14
    plan = jobs.plan_job_revision(done.id, ReviseJob(ReviseDatastoreJob(kind=done.kind, config=done.config))).data
    changes = [(c.var_field, c.var_from, c.to) for c in plan.changes]
    check(changes == [("backupRetentionDays", "7", "14")],
          f"datastore read, changed and sent back: the plan changes {changes}")


def same(read, sent):
    """A field read back as sent: enums by their value, nested models by their dicts."""
    if hasattr(read, "value"):
        read = read.value
    if isinstance(read, list):
        return len(read) == len(sent) and all(same(r, s) for r, s in zip(read, sent))
    if hasattr(read, "to_dict"):
        read = read.to_dict()
    if isinstance(read, dict) and isinstance(sent, dict):
        return all(same(read.get(k), v) for k, v in sent.items())
    return read == sent


def check(condition, what):
    if not condition:
        print("FAILED: " + what, file=sys.stderr)
        sys.exit(1)
    print("ok: " + what)


if __name__ == "__main__":
    main()
