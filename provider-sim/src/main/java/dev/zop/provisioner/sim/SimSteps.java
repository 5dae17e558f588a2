package dev.zop.provisioner.sim;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The three step shapes every simulated resource uses: create, wait until active, delete. */
final class SimSteps {
  private SimSteps() {}

  /**
   * The step {@code verb} of {@code part} ({@code create-nodegroup-default}, of kind {@code create-nodegroup}),
   * which tells the cloud which step is calling (the cloud counts calls per step), then does {@code body}.
   */
  private static ProviderStep tracked(String verb, Part part, List<String> permissions, SimCloud cloud,
      ProviderStep.Body body) {
    String name = verb + "-" + part.stepSuffix();
    ProviderStep.Body calling = context -> {
      cloud.enterStep(context.jobId().value(), name);
      try {
        return body.run(context);
      } finally {
        cloud.leaveStep();
      }
    };
    int dot = part.key().indexOf('.');
    return dot < 0 ? ProviderStep.of(name, permissions, calling)
        : ProviderStep.each(verb + "-" + part.key().substring(0, dot),
            part.key().substring(dot + 1).replace('.', '-'), permissions, calling);
  }

  /**
   * Observes, records intent, creates; adopts a resource this job already created. The intent, the resource's
   * name, is known before the step runs and declared, so it is recorded with the step's start.
   */
  static Step create(SimCloud cloud, Part part, String region) {
    return tracked("create", part, part.createPermissions(), cloud, ctx -> {
      String name = nameOf(part, ctx);
      SimCloud.Resource existing = cloud.describe(part.describe(), part.type(), name);
      Failure foreign = existing == null ? null
          : SimProvider.OWNER.refuseForeign(existing.tags(), ctx, part.type(), name);
      if (foreign != null) {
        return StepResult.fail(foreign);
      }
      if (existing == null) {
        ctx.recordIntent(Map.ofEntries(part.nameKey().is(name)));
        try {
          cloud.create(part.create(), part.type(), name, part.attributes(),
              SimProvider.OWNER.of(ctx));
        } catch (SimException e) {
          if (e.code() != SimException.Code.ALREADY_EXISTS) {
            throw e;
          }
          // created by an earlier attempt whose answer was lost; the next run's describe confirms it is ours
          return StepResult.waitFor(cloud.pollInterval(), part.type() + " " + name + " is being created");
        }
      } else {
        ctx.log("adopted existing " + part.type() + " " + name);
      }
      Map<String, String> outputs = new LinkedHashMap<>();
      outputs.put(part.nameKey().name(), name);
      outputs.put(part.idKey().name(), "sim:" + region + ":" + part.type() + "/" + name);
      part.outputs().forEach((k, v) -> outputs.put(k, v.replace("{name}", name)));
      SimCloud.Server server = part.server() == null ? null : cloud.backingServer(part.server());
      if (server != null) {
        // the simulated instance stands for a real server; its admin login goes to the secret store
        SecretRef admin = ctx.secrets().put("zop/sim/" + ctx.jobId() + "/" + part.key() + "/admin",
            server.adminPassword());
        outputs.putAll(Map.ofEntries(SharedOutputs.HOST.is(server.host()), SharedOutputs.PORT.is(server.port()),
            SharedOutputs.ADMIN_USER.is(server.adminUser()), SharedOutputs.ADMIN_SECRET_REF.is(admin)));
      }
      return StepResult.done(outputs);
    }).intending(ctx -> Map.ofEntries(part.nameKey().is(nameOf(part, ctx))));
  }

  private static String nameOf(Part part, StepContext ctx) {
    return part.name() != null ? part.name() : ctx.resourceName(part.suffix());
  }

  /** Waits, without holding a thread, until the resource leaves CREATING. */
  static Step await(SimCloud cloud, Part part) {
    return tracked("await", part, List.of(part.describe()), cloud, ctx -> {
      String name = ctx.outputs().require(part.nameKey());
      SimCloud.Resource resource = cloud.describe(part.describe(), part.type(), name);
      if (resource == null) {
        return StepResult.fail(Failure.system("resource_missing",
            part.type() + " " + name + " disappeared while it was being created"));
      }
      if (resource.status(cloud.now()) == SimCloud.Status.CREATING) {
        return StepResult.waitFor(cloud.pollInterval(), part.type() + " " + name + " is CREATING");
      }
      return StepResult.done();
    });
  }

  /**
   * Makes a resource's attributes what the revised spec says, where it stands; already so is success, so a run
   * after a crash that followed the change changes nothing again.
   */
  static Step update(SimCloud cloud, Part part, String name) {
    return tracked("update", part, List.of(part.describe(), part.modify()), cloud, ctx -> {
      SimCloud.Resource existing = cloud.describe(part.describe(), part.type(), name);
      if (existing == null) {
        return StepResult.fail(Failure.system("resource_missing", part.type() + " " + name
            + " is gone; it cannot be changed"));
      }
      Failure foreign = SimProvider.OWNER.refuseForeign(existing.tags(), ctx, part.type(), name);
      if (foreign != null) {
        return StepResult.fail(foreign);
      }
      if (!existing.attributes().equals(part.attributes())) {
        cloud.modify(part.modify(), part.type(), name, part.attributes());
      }
      return StepResult.done();
    });
  }

  /**
   * Takes over a resource that exists for an imported job: the first of {@code names} the cloud has, refused when
   * another job's tag is on it, tagged with this job's, and recorded under the part's keys as create would have.
   */
  static Step adopt(SimCloud cloud, Part part, List<String> names, String region) {
    return tracked("adopt", part, List.of(part.describe(), part.service() + ":Tag" + part.noun()),
        cloud, ctx -> {
          for (String name : names) {
            SimCloud.Resource existing = cloud.describe(part.describe(), part.type(), name);
            if (existing == null) {
              continue;
            }
            Failure owned = SimProvider.OWNER.refuseOwned(existing.tags(), ctx, part.type(), name);
            if (owned != null) {
              return StepResult.fail(owned);
            }
            if (!SimProvider.OWNER.owns(existing.tags(), ctx)) {
              cloud.tag(part.service() + ":Tag" + part.noun(), part.type(), name, SimProvider.OWNER.of(ctx));
            }
            Map<String, String> outputs = new LinkedHashMap<>();
            outputs.put(part.nameKey().name(), name);
            outputs.put(part.idKey().name(), "sim:" + region + ":" + part.type() + "/" + name);
            part.outputs().forEach((k, v) -> outputs.put(k, v.replace("{name}", name)));
            return StepResult.done(outputs);
          }
          return StepResult.fail(Failure.userAction("resource_missing", part.type() + " " + names.get(0)
              + " is gone since the import was planned", "Plan the import again.", null));
        });
  }

  /** Deletes what the job created; absent is success, and a resource another job owns is left alone. */
  static Step delete(SimCloud cloud, Part part, String name) {
    return tracked("delete", part, List.of(part.describe(), part.delete()), cloud, ctx -> {
      SimCloud.Resource existing = cloud.describe(part.describe(), part.type(), name);
      if (existing == null) {
        return StepResult.done();
      }
      if (!SimProvider.OWNER.owns(existing.tags(), ctx)) {
        ctx.log(part.type() + " " + name + " belongs to another job; left in place");
        return StepResult.done();
      }
      try {
        cloud.delete(part.delete(), part.type(), name);
      } catch (SimException e) {
        if (e.code() != SimException.Code.NOT_FOUND) {
          throw e;
        }
      }
      SecretRef admin = ctx.outputs().get(SharedOutputs.ADMIN_SECRET_REF);
      if (part.server() != null && admin != null) {
        ctx.secrets().delete(admin);
      }
      return StepResult.done();
    });
  }
}
