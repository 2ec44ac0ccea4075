// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: devices whose VRAM is a PCI memory BAR.
 *
 * The PCI driver has no ID table: an administrator (or the test VM) binds a
 * device explicitly, as with vfio-pci:
 *
 *	echo vrampool > /sys/bus/pci/devices/<bdf>/driver_override
 *	echo <bdf> > /sys/bus/pci/drivers/vrampool/bind
 *
 * BAR 2 is the VRAM, as on QEMU's ivshmem-plain device (1af4:1110), whose
 * shared-memory BAR it is. It is mapped write-combined.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/io.h>
#include <linux/iosys-map.h>
#include <linux/pci.h>

#include "vrampool_device.h"
#include "vrampool_drv.h"
#include "vrampool_pci.h"

#define VRAMPOOL_VRAM_BAR	2

static int vrampool_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct vrampool_device_props props;
	struct vrampool_device *vdev;
	struct iosys_map vram;
	resource_size_t base;
	void __iomem *vaddr;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	if (!(pci_resource_flags(pdev, VRAMPOOL_VRAM_BAR) & IORESOURCE_MEM)) {
		dev_err(&pdev->dev, "refusing device: BAR %d is not a memory BAR\n",
			VRAMPOOL_VRAM_BAR);
		return -ENODEV;
	}

	ret = vrampool_device_props_init(&pdev->dev, pci_resource_len(pdev, VRAMPOOL_VRAM_BAR),
					 &props);
	if (ret)
		return ret;

	ret = pcim_request_region(pdev, VRAMPOOL_VRAM_BAR, DRIVER_NAME);
	if (ret)
		return ret;

	base = pci_resource_start(pdev, VRAMPOOL_VRAM_BAR);
	vaddr = devm_ioremap_wc(&pdev->dev, base, props.vram_size);
	if (!vaddr)
		return -ENOMEM;
	iosys_map_set_vaddr_iomem(&vram, vaddr);

	vdev = vrampool_device_create(&pdev->dev, &vrampool_drm_driver, VRAMPOOL_VRAM_PCI_BAR,
				      &props, &vram, base);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	pci_set_drvdata(pdev, vdev);
	return 0;
}

static void vrampool_pci_remove(struct pci_dev *pdev)
{
	vrampool_device_fini(pci_get_drvdata(pdev));
}

static struct pci_driver vrampool_pci_driver = {
	.name = DRIVER_NAME,
	.probe = vrampool_pci_probe,
	.remove = vrampool_pci_remove,
};

/**
 * vrampool_pci_register() - register the PCI driver
 *
 * Return: 0 or a negative errno.
 */
int vrampool_pci_register(void)
{
	return pci_register_driver(&vrampool_pci_driver);
}

/**
 * vrampool_pci_unregister() - unbind every PCI device and unregister
 */
void vrampool_pci_unregister(void)
{
	pci_unregister_driver(&vrampool_pci_driver);
}
