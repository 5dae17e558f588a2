/** What a provider finds in an account and region, so a wizard can offer real choices. */
package dev.zop.provisioner.discovery;
