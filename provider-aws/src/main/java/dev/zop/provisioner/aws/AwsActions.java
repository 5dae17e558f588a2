package dev.zop.provisioner.aws;

/**
 * Every IAM action the provider performs, written once: steps declare them (what {@code plan} lists), calls
 * are tagged with them (a call with an undeclared one is refused), and failures name them in their fix hints.
 */
final class AwsActions {
  // autoscaling
  static final String AUTOSCALING_CREATE_AUTO_SCALING_GROUP = "autoscaling:CreateAutoScalingGroup";
  static final String AUTOSCALING_CREATE_OR_UPDATE_TAGS = "autoscaling:CreateOrUpdateTags";
  static final String AUTOSCALING_ATTACH_LOAD_BALANCER_TARGET_GROUPS = "autoscaling:AttachLoadBalancerTargetGroups";
  static final String AUTOSCALING_DETACH_LOAD_BALANCER_TARGET_GROUPS = "autoscaling:DetachLoadBalancerTargetGroups";
  static final String AUTOSCALING_DELETE_AUTO_SCALING_GROUP = "autoscaling:DeleteAutoScalingGroup";
  static final String AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS = "autoscaling:DescribeAutoScalingGroups";
  static final String AUTOSCALING_UPDATE_AUTO_SCALING_GROUP = "autoscaling:UpdateAutoScalingGroup";
  static final String AUTOSCALING_TERMINATE_INSTANCE_IN_AUTO_SCALING_GROUP =
      "autoscaling:TerminateInstanceInAutoScalingGroup";
  // ec2
  static final String EC2_ACCEPT_VPC_PEERING_CONNECTION = "ec2:AcceptVpcPeeringConnection";
  static final String EC2_ALLOCATE_ADDRESS = "ec2:AllocateAddress";
  static final String EC2_ASSOCIATE_ROUTE_TABLE = "ec2:AssociateRouteTable";
  static final String EC2_ATTACH_INTERNET_GATEWAY = "ec2:AttachInternetGateway";
  static final String EC2_CREATE_INTERNET_GATEWAY = "ec2:CreateInternetGateway";
  static final String EC2_CREATE_NAT_GATEWAY = "ec2:CreateNatGateway";
  static final String EC2_CREATE_ROUTE = "ec2:CreateRoute";
  static final String EC2_CREATE_ROUTE_TABLE = "ec2:CreateRouteTable";
  static final String EC2_DELETE_INTERNET_GATEWAY = "ec2:DeleteInternetGateway";
  static final String EC2_DELETE_NAT_GATEWAY = "ec2:DeleteNatGateway";
  static final String EC2_DELETE_ROUTE = "ec2:DeleteRoute";
  static final String EC2_DELETE_ROUTE_TABLE = "ec2:DeleteRouteTable";
  static final String EC2_DESCRIBE_ADDRESSES = "ec2:DescribeAddresses";
  static final String EC2_DESCRIBE_NAT_GATEWAYS = "ec2:DescribeNatGateways";
  static final String EC2_DESCRIBE_ROUTE_TABLES = "ec2:DescribeRouteTables";
  static final String EC2_DETACH_INTERNET_GATEWAY = "ec2:DetachInternetGateway";
  static final String EC2_DISASSOCIATE_ROUTE_TABLE = "ec2:DisassociateRouteTable";
  static final String EC2_MODIFY_SUBNET_ATTRIBUTE = "ec2:ModifySubnetAttribute";
  static final String EC2_RELEASE_ADDRESS = "ec2:ReleaseAddress";
  static final String EC2_REPLACE_ROUTE = "ec2:ReplaceRoute";
  static final String EC2_REPLACE_ROUTE_TABLE_ASSOCIATION = "ec2:ReplaceRouteTableAssociation";
  static final String EC2_ASSOCIATE_VPC_WITH_HOSTED_ZONE = "ec2:AssociateVpcWithHostedZone";
  static final String EC2_AUTHORIZE_SECURITY_GROUP_INGRESS = "ec2:AuthorizeSecurityGroupIngress";
  static final String EC2_REVOKE_SECURITY_GROUP_INGRESS = "ec2:RevokeSecurityGroupIngress";
  static final String EC2_CREATE_LAUNCH_TEMPLATE = "ec2:CreateLaunchTemplate";
  static final String EC2_CREATE_LAUNCH_TEMPLATE_VERSION = "ec2:CreateLaunchTemplateVersion";
  static final String EC2_DESCRIBE_LAUNCH_TEMPLATE_VERSIONS = "ec2:DescribeLaunchTemplateVersions";
  static final String EC2_CREATE_SECURITY_GROUP = "ec2:CreateSecurityGroup";
  static final String EC2_CREATE_SUBNET = "ec2:CreateSubnet";
  static final String EC2_CREATE_TAGS = "ec2:CreateTags";
  static final String EC2_CREATE_VPC = "ec2:CreateVpc";
  static final String EC2_CREATE_VPC_PEERING_CONNECTION = "ec2:CreateVpcPeeringConnection";
  static final String EC2_DELETE_LAUNCH_TEMPLATE = "ec2:DeleteLaunchTemplate";
  static final String EC2_DELETE_SECURITY_GROUP = "ec2:DeleteSecurityGroup";
  static final String EC2_DELETE_SUBNET = "ec2:DeleteSubnet";
  static final String EC2_DELETE_VPC = "ec2:DeleteVpc";
  static final String EC2_DELETE_VPC_PEERING_CONNECTION = "ec2:DeleteVpcPeeringConnection";
  static final String EC2_DESCRIBE_INSTANCES = "ec2:DescribeInstances";
  static final String EC2_DESCRIBE_INTERNET_GATEWAYS = "ec2:DescribeInternetGateways";
  static final String EC2_DESCRIBE_LAUNCH_TEMPLATES = "ec2:DescribeLaunchTemplates";
  static final String EC2_DESCRIBE_NETWORK_INTERFACES = "ec2:DescribeNetworkInterfaces";
  static final String EC2_DESCRIBE_SECURITY_GROUPS = "ec2:DescribeSecurityGroups";
  static final String EC2_DESCRIBE_SUBNETS = "ec2:DescribeSubnets";
  static final String EC2_DESCRIBE_VPC_PEERING_CONNECTIONS = "ec2:DescribeVpcPeeringConnections";
  static final String EC2_DESCRIBE_VPCS = "ec2:DescribeVpcs";
  static final String SSM_GET_PARAMETER = "ssm:GetParameter";
  static final String EC2_RUN_INSTANCES = "ec2:RunInstances";
  static final String EC2_START_INSTANCES = "ec2:StartInstances";
  static final String EC2_STOP_INSTANCES = "ec2:StopInstances";
  // ecr
  static final String ECR_CREATE_REPOSITORY = "ecr:CreateRepository";
  static final String ECR_DELETE_REPOSITORY = "ecr:DeleteRepository";
  static final String ECR_DESCRIBE_REPOSITORIES = "ecr:DescribeRepositories";
  static final String ECR_LIST_TAGS_FOR_RESOURCE = "ecr:ListTagsForResource";
  static final String ECR_TAG_RESOURCE = "ecr:TagResource";
  static final String ECR_PUT_IMAGE_TAG_MUTABILITY = "ecr:PutImageTagMutability";
  static final String ECR_PUT_IMAGE_SCANNING_CONFIGURATION = "ecr:PutImageScanningConfiguration";
  // eks
  static final String EKS_ASSOCIATE_ACCESS_POLICY = "eks:AssociateAccessPolicy";
  static final String EKS_CREATE_ACCESS_ENTRY = "eks:CreateAccessEntry";
  static final String EKS_DELETE_ACCESS_ENTRY = "eks:DeleteAccessEntry";
  static final String STS_GET_CALLER_IDENTITY = "sts:GetCallerIdentity";
  static final String EKS_CREATE_CLUSTER = "eks:CreateCluster";
  static final String EKS_CREATE_NODEGROUP = "eks:CreateNodegroup";
  static final String EKS_DELETE_CLUSTER = "eks:DeleteCluster";
  static final String EKS_DELETE_NODEGROUP = "eks:DeleteNodegroup";
  static final String EKS_DESCRIBE_CLUSTER = "eks:DescribeCluster";
  static final String EKS_DESCRIBE_NODEGROUP = "eks:DescribeNodegroup";
  static final String EKS_LIST_CLUSTERS = "eks:ListClusters";
  static final String EKS_TAG_RESOURCE = "eks:TagResource";
  static final String EKS_UPDATE_CLUSTER_VERSION = "eks:UpdateClusterVersion";
  static final String EKS_UPDATE_NODEGROUP_CONFIG = "eks:UpdateNodegroupConfig";
  static final String EKS_UPDATE_NODEGROUP_VERSION = "eks:UpdateNodegroupVersion";
  // elasticache
  static final String ELASTICACHE_ADD_TAGS_TO_RESOURCE = "elasticache:AddTagsToResource";
  static final String ELASTICACHE_CREATE_REPLICATION_GROUP = "elasticache:CreateReplicationGroup";
  static final String ELASTICACHE_DELETE_REPLICATION_GROUP = "elasticache:DeleteReplicationGroup";
  static final String ELASTICACHE_DESCRIBE_REPLICATION_GROUPS = "elasticache:DescribeReplicationGroups";
  static final String ELASTICACHE_MODIFY_REPLICATION_GROUP = "elasticache:ModifyReplicationGroup";
  static final String ELASTICACHE_LIST_TAGS_FOR_RESOURCE = "elasticache:ListTagsForResource";
  // elasticloadbalancing
  static final String ELB_ADD_TAGS = "elasticloadbalancing:AddTags";
  static final String ELB_CREATE_LISTENER = "elasticloadbalancing:CreateListener";
  static final String ELB_CREATE_LOAD_BALANCER = "elasticloadbalancing:CreateLoadBalancer";
  static final String ELB_CREATE_TARGET_GROUP = "elasticloadbalancing:CreateTargetGroup";
  static final String ELB_DELETE_LISTENER = "elasticloadbalancing:DeleteListener";
  static final String ELB_DELETE_LOAD_BALANCER = "elasticloadbalancing:DeleteLoadBalancer";
  static final String ELB_DELETE_TARGET_GROUP = "elasticloadbalancing:DeleteTargetGroup";
  static final String ELB_DESCRIBE_LISTENERS = "elasticloadbalancing:DescribeListeners";
  static final String ELB_DESCRIBE_LOAD_BALANCERS = "elasticloadbalancing:DescribeLoadBalancers";
  static final String ELB_DESCRIBE_TARGET_GROUPS = "elasticloadbalancing:DescribeTargetGroups";
  // iam
  static final String IAM_ATTACH_ROLE_POLICY = "iam:AttachRolePolicy";
  static final String IAM_CREATE_ROLE = "iam:CreateRole";
  static final String IAM_DELETE_ROLE = "iam:DeleteRole";
  static final String IAM_DETACH_ROLE_POLICY = "iam:DetachRolePolicy";
  static final String IAM_GET_ROLE = "iam:GetRole";
  static final String IAM_LIST_ATTACHED_ROLE_POLICIES = "iam:ListAttachedRolePolicies";
  static final String IAM_PASS_ROLE = "iam:PassRole";
  static final String IAM_TAG_ROLE = "iam:TagRole";
  // rds
  static final String RDS_ADD_TAGS_TO_RESOURCE = "rds:AddTagsToResource";
  static final String RDS_CREATE_DB_INSTANCE = "rds:CreateDBInstance";
  static final String RDS_CREATE_DB_SNAPSHOT = "rds:CreateDBSnapshot";
  static final String RDS_CREATE_DB_SUBNET_GROUP = "rds:CreateDBSubnetGroup";
  static final String RDS_DELETE_DB_INSTANCE = "rds:DeleteDBInstance";
  static final String RDS_DELETE_DB_SUBNET_GROUP = "rds:DeleteDBSubnetGroup";
  static final String RDS_DESCRIBE_DB_INSTANCES = "rds:DescribeDBInstances";
  static final String RDS_DESCRIBE_DB_SUBNET_GROUPS = "rds:DescribeDBSubnetGroups";
  static final String RDS_MODIFY_DB_INSTANCE = "rds:ModifyDBInstance";
  static final String RDS_START_DB_INSTANCE = "rds:StartDBInstance";
  static final String RDS_STOP_DB_INSTANCE = "rds:StopDBInstance";
  // route53
  static final String ROUTE53_CHANGE_TAGS_FOR_RESOURCE = "route53:ChangeTagsForResource";
  static final String ROUTE53_CREATE_HOSTED_ZONE = "route53:CreateHostedZone";
  static final String ROUTE53_DELETE_HOSTED_ZONE = "route53:DeleteHostedZone";
  static final String ROUTE53_LIST_HOSTED_ZONES = "route53:ListHostedZones";
  static final String ROUTE53_LIST_HOSTED_ZONES_BY_NAME = "route53:ListHostedZonesByName";
  static final String ROUTE53_LIST_TAGS_FOR_RESOURCE = "route53:ListTagsForResource";
  // secretsmanager
  static final String SECRETS_CREATE_SECRET = "secretsmanager:CreateSecret";
  static final String SECRETS_DELETE_SECRET = "secretsmanager:DeleteSecret";
  static final String SECRETS_GET_SECRET_VALUE = "secretsmanager:GetSecretValue";
  static final String SECRETS_PUT_SECRET_VALUE = "secretsmanager:PutSecretValue";
  static final String SECRETS_TAG_RESOURCE = "secretsmanager:TagResource";

  private AwsActions() {}
}
