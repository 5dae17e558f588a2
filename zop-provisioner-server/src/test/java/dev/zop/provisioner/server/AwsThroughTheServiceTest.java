package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.aws.MotoServer;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provisioning document's kubernetes and datastore bodies on AWS through {@code zop serve}: a process of its
 * own whose store is PostgreSQL, the real AWS SDK inside it against moto, called over HTTP as the document's curl
 * examples do. Each job is created, then revised (its plan's diff and cost asserted first); moto's state is read
 * afterwards with boto3, AWS's own Python SDK. moto lacks EKS's UpdateClusterVersion and UpdateNodegroupVersion
 * (and access entries): {@link EksStandInProxy}, WireMock in front of moto, answers those alone, and the requests
 * the SDK sent are asserted.
 */
class AwsThroughTheServiceTest {
  static final Duration WAIT = Duration.ofSeconds(120);
  static MotoServer moto;
  static EksStandInProxy eks;
  static PostgresTestDatabase store;
  static ZopServeProcess serve;
  static String token;
  static Provisioner client;
  static Space space;

  @BeforeAll
  static void start() throws Exception {
    moto = MotoServer.get();
    moto.reset();
    eks = new EksStandInProxy(moto.endpoint());
    store = PostgresTestDatabase.create();
    Path dir = Files.createTempDirectory("zop-serve-aws");
    String[] jdbc = {"--jdbc-url", store.url(), "--jdbc-user", store.user(), "--jdbc-password", store.password()};
    List<String> tokens = new ArrayList<>(List.of("tokens", "create", "--org", "acme", "--actor", "alice@acme.com",
        "--role", "admin"));
    tokens.addAll(List.of(jdbc));
    token = ZopServeProcess.zop(tokens.toArray(String[]::new)).trim();
    List<String> options = new ArrayList<>(List.of(jdbc));
    options.addAll(List.of("--provider-poll-interval", "50ms"));
    // the SDK's default credential chain in the process: moto takes any key
    serve = ZopServeProcess.start(dir, Map.of("AWS_ACCESS_KEY_ID", "testing", "AWS_SECRET_ACCESS_KEY", "testing"),
        options.toArray(String[]::new));
    client = ProvisionerClient.builder().baseUrl(serve.base()).bearerToken(token).build();
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("aws", "moto")
        .credentialsRef("default-chain").property("endpoint", eks.endpoint()));
    space = client.spaces().create(SpaceRequest.of("aws", "acme-us-east-1", account.id()).region("us-east-1"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (serve != null) {
      assertThat(serve.stop()).as("zop serve stops on SIGTERM").isTrue();
    }
    if (eks != null) {
      eks.close();
    }
    if (store != null) {
      store.close();
    }
  }

  private static RawHttp.Reply call(String method, String path, String body) {
    return RawHttp.json(serve.base(), method, path, token, body);
  }

  /** Posts one of the document's bodies as its curl example does, and waits for the job. */
  private static Job submitted(String body) {
    RawHttp.Reply reply = call("POST", "/provisioning-jobs", body.replace("spc_abc123", space.id().value()));
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
    return awaited(JobId.of(reply.json().at("/data/id").asText()));
  }

  private static Job awaited(JobId id) {
    Job job = client.jobs().await(id, WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isIn(JobStatus.SUCCEEDED, JobStatus.DELETED);
    return job;
  }

  /** The revision's plan over REST: its changes as {@code field:from->to:effect}, and the plan itself. */
  private static JsonNode planned(Job job, String config, List<String> changes) {
    RawHttp.Reply plan = call("POST", "/provisioning-jobs/" + job.id().value() + "/revisions/plan",
        "{\"kind\": \"" + job.kind().wireName() + "\", \"config\": " + config + "}");
    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    JsonNode data = plan.json().get("data");
    data.get("changes").forEach(c -> changes.add(c.get("field").asText() + ":" + c.get("from").asText() + "->"
        + c.get("to").asText() + ":" + c.get("effect").asText()));
    return data;
  }

  private static Job revised(Job job, String config) {
    RawHttp.Reply applied = call("POST", "/provisioning-jobs/" + job.id().value() + "/revisions",
        "{\"kind\": \"" + job.kind().wireName() + "\", \"config\": " + config + "}");
    assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    return awaited(job.id());
  }

  private static JsonNode boto3(String script) throws Exception {
    return RawHttp.JSON.readTree(moto.boto3(script));
  }

  @Test
  void theDocumentsClusterIsRevisedToThreeToTenNodesAndKubernetes131() throws Exception {
    // what the document's invented network ids stand for, made in moto directly
    JsonNode network = boto3("""
        ec2 = boto3.client("ec2", **kw)
        vpc = ec2.create_vpc(CidrBlock="10.30.0.0/16")["Vpc"]["VpcId"]
        a = ec2.create_subnet(VpcId=vpc, CidrBlock="10.30.1.0/24", AvailabilityZone="us-east-1a")["Subnet"]["SubnetId"]
        b = ec2.create_subnet(VpcId=vpc, CidrBlock="10.30.2.0/24", AvailabilityZone="us-east-1b")["Subnet"]["SubnetId"]
        print(json.dumps({"vpc": vpc, "a": a, "b": b}))
        """);
    String document = ProvisioningDocument.KUBERNETES.replace("platform-net-a", network.get("a").asText())
        .replace("platform-net-b", network.get("b").asText()).replace("platform-net", network.get("vpc").asText());
    Job job = submitted(document);
    assertThat(job.outputs()).containsEntry("clusterName", "platform-prod");

    String config = RawHttp.JSON.readTree(document).get("config").toString().replace("\"1.30\"", "\"1.31\"")
        .replace("\"min\":2", "\"min\":3").replace("\"max\":6", "\"max\":10");
    List<String> changes = new ArrayList<>();
    JsonNode plan = planned(job, config, changes);
    assertThat(changes).containsExactlyInAnyOrder("version:1.30->1.31:in_place", "nodeGroups[0].min:2->3:in_place",
        "nodeGroups[0].max:6->10:in_place");
    // 730 h x (0.10 for the control plane + n x 0.096 for m5.large): 2 nodes, then 3
    assertThat(plan.at("/before/monthlyTotal").decimalValue()).isEqualByComparingTo("213.16");
    assertThat(plan.at("/after/monthlyTotal").decimalValue()).isEqualByComparingTo("283.24");
    Job done = revised(job, config);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);

    // the two calls moto lacks, as the SDK in zop serve sent them through WireMock: control plane, then nodes
    List<LoggedRequest> cluster = eks.requests(EksStandInProxy.UPDATE_CLUSTER_VERSION);
    assertThat(cluster).singleElement().satisfies(r -> {
      assertThat(r.getUrl()).isEqualTo("/clusters/platform-prod/updates");
      JsonNode body = RawHttp.JSON.readTree(r.getBodyAsString());
      assertThat(body.get("version").asText()).isEqualTo("1.31");
      assertThat(body.get("clientRequestToken").asText()).isNotBlank();
    });
    List<LoggedRequest> nodes = eks.requests(EksStandInProxy.UPDATE_NODEGROUP_VERSION);
    assertThat(nodes).singleElement().satisfies(r -> {
      assertThat(r.getUrl()).isEqualTo("/clusters/platform-prod/node-groups/default/update-version");
      assertThat(RawHttp.JSON.readTree(r.getBodyAsString()).get("version").asText()).isEqualTo("1.31");
      assertThat(r.getLoggedDate()).isAfterOrEqualTo(cluster.get(0).getLoggedDate());
    });
    JsonNode state = boto3("""
        eks = boto3.client("eks", **kw)
        groups = eks.list_nodegroups(clusterName="platform-prod")["nodegroups"]
        print(json.dumps({"clusters": eks.list_clusters()["clusters"], "names": groups, "scaling": [
            eks.describe_nodegroup(clusterName="platform-prod", nodegroupName=g)["nodegroup"]["scalingConfig"]
            for g in groups]}))
        """);
    // the same cluster and node group, rescaled where they stand: nothing replaced
    assertThat(state.get("clusters")).hasSize(1);
    assertThat(state.get("names")).hasSize(1);
    assertThat(state.at("/names/0").asText()).isEqualTo("default");
    assertThat(state.at("/scaling/0/minSize").asInt()).isEqualTo(3);
    assertThat(state.at("/scaling/0/maxSize").asInt()).isEqualTo(10);
    assertThat(state.at("/scaling/0/desiredSize").asInt()).isEqualTo(3);
    RawHttp.Reply history = call("GET", "/provisioning-jobs/" + job.id().value() + "/revisions", null);
    assertThat(history.json().at("/data/1/status").asText()).isEqualTo("applied");
    assertThat(history.json().at("/data/1/config/version").asText()).isEqualTo("1.31");

    assertThat(call("DELETE", "/provisioning-jobs/" + job.id().value(), null).status()).isEqualTo(200);
    assertThat(awaited(job.id()).status()).isEqualTo(JobStatus.DELETED);
    assertThat(boto3("""
        print(json.dumps(boto3.client("eks", **kw).list_clusters()["clusters"]))
        """)).isEmpty();
  }

  @Test
  void theDocumentsDatastoreIsRevisedToALargerClassAHundredGigabytesAndFourteenDaysOfBackups() throws Exception {
    Job job = submitted(ProvisioningDocument.DATASTORE);
    String id = job.outputs().get("dbInstanceIdentifier");

    String config = RawHttp.JSON.readTree(ProvisioningDocument.DATASTORE).get("config").toString()
        .replace("db.t3.medium", "db.m5.large").replace("50", "100").replace("\"backupRetentionDays\":7",
            "\"backupRetentionDays\":14");
    List<String> changes = new ArrayList<>();
    JsonNode plan = planned(job, config, changes);
    assertThat(changes).containsExactlyInAnyOrder("instanceClass:db.t3.medium->db.m5.large:in_place",
        "allocatedStorageGB:50->100:in_place", "backupRetentionDays:7->14:in_place");
    assertThat(plan.at("/before/monthlyTotal").decimalValue()).isEqualByComparingTo("116.62");
    assertThat(plan.at("/after/monthlyTotal").decimalValue()).isEqualByComparingTo("282.88");
    assertThat(revised(job, config).status()).isEqualTo(JobStatus.SUCCEEDED);

    JsonNode instances = boto3("""
        print(json.dumps(boto3.client("rds", **kw).describe_db_instances()["DBInstances"], default=str))
        """);
    // one instance, the same one, every attribute changed: nothing was replaced
    assertThat(instances).hasSize(1);
    assertThat(instances.at("/0/DBInstanceIdentifier").asText()).isEqualTo(id);
    assertThat(instances.at("/0/DBInstanceClass").asText()).isEqualTo("db.m5.large");
    assertThat(instances.at("/0/AllocatedStorage").asInt()).isEqualTo(100);
    assertThat(instances.at("/0/BackupRetentionPeriod").asInt()).isEqualTo(14);
    assertThat(instances.at("/0/MultiAZ").asBoolean()).isTrue();

    assertThat(call("DELETE", "/provisioning-jobs/" + job.id().value(), null).status()).isEqualTo(200);
    assertThat(awaited(job.id()).status()).isEqualTo(JobStatus.DELETED);
  }

  /** A drift check over REST: the report's drifts as {@code resource|field|expected|actual}. */
  private static List<String> drifts(Job job) {
    RawHttp.Reply check = call("POST", "/provisioning-jobs/" + job.id().value() + "/drift-checks", null);
    assertThat(check.status()).as(check.body()).isEqualTo(200);
    List<String> found = new ArrayList<>();
    check.json().at("/data/drifts").forEach(d -> found.add(d.get("resource").asText() + "|"
        + d.path("field").asText(null) + "|" + d.get("expected").asText() + "|" + d.path("actual").asText(null)));
    return found;
  }

  private static Job reconciled(Job job) {
    RawHttp.Reply reconcile = call("POST", "/provisioning-jobs/" + job.id().value() + "/reconcile", null);
    assertThat(reconcile.status()).as(reconcile.body()).isEqualTo(200);
    return awaited(job.id());
  }

  private static void deleted(Job job) {
    assertThat(call("DELETE", "/provisioning-jobs/" + job.id().value(), null).status()).isEqualTo(200);
    assertThat(awaited(job.id()).status()).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aNodeGroupResizedAndARuleRevokedWithBoto3AreReportedAndPutBackAndADeletedInstanceIsMissing()
      throws Exception {
    JsonNode network = boto3("""
        ec2 = boto3.client("ec2", **kw)
        vpc = ec2.create_vpc(CidrBlock="10.31.0.0/16")["Vpc"]["VpcId"]
        a = ec2.create_subnet(VpcId=vpc, CidrBlock="10.31.1.0/24", AvailabilityZone="us-east-1a")["Subnet"]["SubnetId"]
        b = ec2.create_subnet(VpcId=vpc, CidrBlock="10.31.2.0/24", AvailabilityZone="us-east-1b")["Subnet"]["SubnetId"]
        print(json.dumps({"vpc": vpc, "a": a, "b": b}))
        """);
    String vpc = network.get("vpc").asText();
    String subnets = "[\"" + network.get("a").asText() + "\", \"" + network.get("b").asText() + "\"]";
    Job cluster = submitted(ProvisioningDocument.KUBERNETES.replace("platform-prod", "drift-prod")
        .replace("[\"platform-net-a\", \"platform-net-b\"]", subnets).replace("platform-net", vpc));
    Job datastore = submitted(ProvisioningDocument.DATASTORE.replace("\"backupRetentionDays\": 7",
        "\"backupRetentionDays\": 7, \"vpcID\": \"" + vpc + "\", \"subnetIDs\": " + subnets));
    String group = datastore.outputs().get("dbSecurityGroupId");
    String instance = datastore.outputs().get("dbInstanceIdentifier");
    try {
      assertThat(drifts(cluster)).isEmpty();
      assertThat(drifts(datastore)).isEmpty();

      // by hand, as someone in the console would: the node group shrunk, the database port closed to the VPC
      boto3("""
          boto3.client("eks", **kw).update_nodegroup_config(clusterName="drift-prod", nodegroupName="default",
              scalingConfig={"minSize": 1, "maxSize": 3, "desiredSize": 1})
          boto3.client("ec2", **kw).revoke_security_group_ingress(GroupId="%s", IpPermissions=[{"IpProtocol": "tcp",
              "FromPort": 5432, "ToPort": 5432, "IpRanges": [{"CidrIp": "10.31.0.0/16"}]}])
          print("{}")
          """.formatted(group));
      assertThat(drifts(cluster)).containsExactly("eks nodegroup drift-prod/default|nodeGroups[0].min|2|1",
          "eks nodegroup drift-prod/default|nodeGroups[0].max|6|3");
      assertThat(drifts(datastore)).containsExactly("security group " + group
          + "|securityGroup.ingress|tcp/5432 from 10.31.0.0/16|null");
      RawHttp.Reply plan = call("POST", "/provisioning-jobs/" + datastore.id().value() + "/reconcile/plan", null);
      assertThat(plan.status()).as(plan.body()).isEqualTo(200);
      assertThat(plan.json().at("/data/changes/0/field").asText()).isEqualTo("securityGroup.ingress");
      assertThat(plan.json().at("/data/changes/0/to").asText()).isEqualTo("tcp/5432 from 10.31.0.0/16");
      assertThat(plan.json().at("/data/steps/0/name").asText()).isEqualTo("open-db-port-to-vpc");

      assertThat(reconciled(cluster).status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(reconciled(datastore).status()).isEqualTo(JobStatus.SUCCEEDED);
      JsonNode state = boto3("""
          scaling = boto3.client("eks", **kw).describe_nodegroup(clusterName="drift-prod",
              nodegroupName="default")["nodegroup"]["scalingConfig"]
          group = boto3.client("ec2", **kw).describe_security_groups(GroupIds=["%s"])["SecurityGroups"][0]
          print(json.dumps({"scaling": scaling, "rules": [[p.get("FromPort"), [r["CidrIp"] for r in p["IpRanges"]]]
              for p in group["IpPermissions"]]}))
          """.formatted(group));
      assertThat(state.at("/scaling/minSize").asInt()).isEqualTo(2);
      assertThat(state.at("/scaling/maxSize").asInt()).isEqualTo(6);
      assertThat(state.get("rules").toString()).isEqualTo("[[5432,[\"10.31.0.0/16\"]]]");
      assertThat(drifts(cluster)).isEmpty();
      assertThat(drifts(datastore)).isEmpty();

      boto3("""
          boto3.client("rds", **kw).delete_db_instance(DBInstanceIdentifier="%s", SkipFinalSnapshot=True)
          print("{}")
          """.formatted(instance));
      assertThat(drifts(datastore)).containsExactly("rds instance " + instance + "|null|present|null");
      RawHttp.Reply refused = call("POST", "/provisioning-jobs/" + datastore.id().value() + "/reconcile", null);
      assertThat(refused.status()).as(refused.body()).isEqualTo(409);
      assertThat(refused.json().at("/error/code").asText()).isEqualTo("resource_missing");
    } finally {
      deleted(cluster);
      deleted(datastore);
    }
  }

  @Test
  void aVpcMadeWithBoto3IsImportedRevisedWithASubnetAndTornDownToNothing() throws Exception {
    JsonNode made = boto3("""
        ec2 = boto3.client("ec2", **kw)
        vpc = ec2.create_vpc(CidrBlock="10.32.0.0/16", TagSpecifications=[{"ResourceType": "vpc",
            "Tags": [{"Key": "Name", "Value": "legacy-net"}]}])["Vpc"]["VpcId"]
        a = ec2.create_subnet(VpcId=vpc, CidrBlock="10.32.1.0/24", AvailabilityZone="us-east-1a",
            TagSpecifications=[{"ResourceType": "subnet", "Tags": [{"Key": "Name", "Value": "legacy-net-a"}]}]
            )["Subnet"]["SubnetId"]
        print(json.dumps({"vpc": vpc, "a": a}))
        """);
    String vpc = made.get("vpc").asText();
    String body = """
        { "spaceID": "%s", "kind": "network", "externalID": "%s", "config": { "name": "legacy-net",
          "cidr": "10.32.0.0/16", "subnets": [ { "name": "a", "cidr": "10.32.1.0/24", "zone": "us-east-1a" } ] } }"""
        .formatted(space.id().value(), vpc);
    RawHttp.Reply plan = call("POST", "/provisioning-jobs/import/plan", body);
    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    assertThat(plan.json().at("/data/adopted").toString())
        .isEqualTo("[\"vpc " + vpc + "\",\"subnet " + made.get("a").asText() + "\"]");
    assertThat(plan.json().at("/data/changes").size()).isZero();
    assertThat(plan.json().at("/data/steps/0/permissions").toString()).contains("ec2:CreateTags");

    RawHttp.Reply started = call("POST", "/provisioning-jobs/import", body);
    assertThat(started.status()).as(started.body()).isEqualTo(201);
    Job imported = awaited(JobId.of(started.json().at("/data/id").asText()));
    assertThat(imported.status()).isEqualTo(JobStatus.SUCCEEDED);
    JsonNode tags = boto3("""
        ec2 = boto3.client("ec2", **kw)
        print(json.dumps({"vpc": ec2.describe_vpcs(VpcIds=["%s"])["Vpcs"][0]["Tags"],
            "subnet": ec2.describe_subnets(SubnetIds=["%s"])["Subnets"][0]["Tags"]}))
        """.formatted(vpc, made.get("a").asText()));
    assertThat(tags.get("vpc").toString()).contains("\"Key\":\"zop:job\",\"Value\":\"" + imported.id().value());
    assertThat(tags.get("subnet").toString()).contains("\"Value\":\"subnet.a\"");
    RawHttp.Reply again = call("POST", "/provisioning-jobs/import/plan", body);
    assertThat(again.status()).as(again.body()).isEqualTo(409);
    assertThat(again.json().at("/error/code").asText()).isEqualTo("owned_by_another_job");

    String grown = RawHttp.JSON.readTree(body).get("config").toString().replace("]",
        ", {\"name\": \"b\", \"cidr\": \"10.32.2.0/24\", \"zone\": \"us-east-1b\"}]");
    List<String> changes = new ArrayList<>();
    planned(imported, grown, changes);
    assertThat(changes).contains("subnets[1].name:null->b:in_place");
    assertThat(revised(imported, grown).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(boto3("""
        print(json.dumps(sorted(s["CidrBlock"] for s in boto3.client("ec2", **kw).describe_subnets(
            Filters=[{"Name": "vpc-id", "Values": ["%s"]}])["Subnets"])))
        """.formatted(vpc)).toString()).isEqualTo("[\"10.32.1.0/24\",\"10.32.2.0/24\"]");

    deleted(imported);
    JsonNode left = boto3("""
        ec2 = boto3.client("ec2", **kw)
        print(json.dumps({"vpcs": [v["VpcId"] for v in ec2.describe_vpcs()["Vpcs"] if v["VpcId"] == "%s"],
            "subnets": [s["SubnetId"] for s in ec2.describe_subnets(Filters=[{"Name": "vpc-id", "Values": ["%s"]}])
            ["Subnets"]]}))
        """.formatted(vpc, vpc));
    assertThat(left.get("vpcs")).isEmpty();
    assertThat(left.get("subnets")).isEmpty();
  }

  @Test
  void aBudgetAnAllowedSizeAndARequiredTagGuardThePlanOnAws() throws Exception {
    // what the document's invented network ids stand for, made in moto directly (as the cluster test does)
    JsonNode network = boto3("""
        ec2 = boto3.client("ec2", **kw)
        vpc = ec2.create_vpc(CidrBlock="10.33.0.0/16")["Vpc"]["VpcId"]
        subnets = [ec2.create_subnet(VpcId=vpc, CidrBlock=f"10.33.{i}.0/24", AvailabilityZone=f"us-east-1{z}")
                   ["Subnet"]["SubnetId"] for i, z in ((1, "a"), (2, "b"))]
        print(json.dumps({"vpc": vpc, "a": subnets[0], "b": subnets[1]}))
        """);
    String document = ProvisioningDocument.KUBERNETES.replace("spc_abc123", space.id().value())
        .replace("platform-net-a", network.get("a").asText()).replace("platform-net-b", network.get("b").asText())
        .replace("platform-net", network.get("vpc").asText());
    GuardrailsOnTheCloud.check(serve.base(), token, space.id(), document, "m5.large");
  }
}
