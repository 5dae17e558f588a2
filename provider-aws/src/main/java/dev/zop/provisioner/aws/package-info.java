/** The AWS provider: AWS SDK for Java v2, one session per account and region. */
package dev.zop.provisioner.aws;
