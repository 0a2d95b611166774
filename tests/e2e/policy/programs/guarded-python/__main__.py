"""The guarded program in Python: a VPC with a tier, an instance on it and a public IP with an SSH firewall rule."""
import pulumi
import pulumi_restcloud as restcloud

config = pulumi.Config()
net = restcloud.Vpc("net", cidr="10.80.0.0/16", vpc_offering_uuid=config.require("vpcOfferingUuid"))
tier = restcloud.VpcTier(
    "tier", vpc_uuid=net.id, cidr="10.80.1.0/24", network_offering_uuid=config.require("tierOfferingUuid")
)
restcloud.Instance(
    "web",
    network_uuid=tier.id,
    template_uuid=config.require("templateUuid"),
    compute_offering_uuid=config.require("planUuid"),
)
ip = restcloud.PublicIpAddress("ip", vpc_uuid=net.id)
restcloud.FirewallRule("ssh", ip_address_uuid=ip.id, protocol="TCP", start_port=22, cidr_list=config.get("sshCidr"))
