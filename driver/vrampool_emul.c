// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: emulated devices, whose VRAM is kernel memory.
 *
 * The module creates platform devices "vrampool.N" at load and binds them to
 * a platform driver; each probe allocates its VRAM with vmalloc. A device the
 * parameters make unusable is refused by its probe with one log line, and
 * stays visible, unbound, under /sys/bus/platform/devices.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/iosys-map.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/vmalloc.h>

#include "vrampool_device.h"
#include "vrampool_drv.h"
#include "vrampool_emul.h"
#include "vrampool_modparams.h"

static struct platform_device *vrampool_emul_pdevs[VRAMPOOL_MAX_EMULATED_DEVICES];

/* Emulated VRAM comes out of RAM: refuse sizes the machine cannot spare. */
static int vrampool_emul_size_check(struct device *dev, u64 size)
{
	u64 limit = (u64)totalram_pages() << (PAGE_SHIFT - 1);

	if (size > limit) {
		dev_err(dev, "refusing device: VRAM size %llu exceeds half of system RAM (%llu bytes)\n",
			size, limit);
		return -EINVAL;
	}
	return 0;
}

static int vrampool_emul_probe(struct platform_device *pdev)
{
	struct vrampool_device_props props;
	struct vrampool_device *vdev;
	struct iosys_map vram;
	void *vaddr;
	int ret;

	ret = vrampool_device_props_init(&pdev->dev, vrampool_modparam.vram_size, &props);
	if (ret)
		return ret;
	ret = vrampool_emul_size_check(&pdev->dev, props.vram_size);
	if (ret)
		return ret;

	vaddr = __vmalloc(props.vram_size, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!vaddr) {
		dev_err(&pdev->dev, "refusing device: cannot allocate %llu bytes of emulated VRAM\n",
			props.vram_size);
		return -ENOMEM;
	}
	iosys_map_set_vaddr(&vram, vaddr);

	/* The device frees @vaddr, on failure too. */
	vdev = vrampool_device_create(&pdev->dev, &vrampool_drm_driver, VRAMPOOL_VRAM_EMULATED,
				      &props, &vram, 0);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	platform_set_drvdata(pdev, vdev);
	return 0;
}

static void vrampool_emul_remove(struct platform_device *pdev)
{
	vrampool_device_fini(platform_get_drvdata(pdev));
}

static struct platform_driver vrampool_emul_driver = {
	.probe = vrampool_emul_probe,
	.remove = vrampool_emul_remove,
	.driver = {
		.name = DRIVER_NAME,
	},
};

static void vrampool_emul_destroy_devices(void)
{
	int i;

	for (i = VRAMPOOL_MAX_EMULATED_DEVICES - 1; i >= 0; i--) {
		platform_device_unregister(vrampool_emul_pdevs[i]);
		vrampool_emul_pdevs[i] = NULL;
	}
}

/**
 * vrampool_emul_register() - create the emulated devices
 *
 * As many as the emulated_devices parameter says, each with vram_size
 * bytes of VRAM.
 *
 * Return: 0, or a negative errno if the count is out of range or the
 * platform devices cannot be created. A device whose probe refuses it does
 * not fail the module load.
 */
int vrampool_emul_register(void)
{
	unsigned int count = vrampool_modparam.emulated_devices;
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	if (count > VRAMPOOL_MAX_EMULATED_DEVICES) {
		pr_err(DRIVER_NAME ": emulated_devices=%u exceeds the maximum of %u\n",
		       count, VRAMPOOL_MAX_EMULATED_DEVICES);
		return -EINVAL;
	}

	ret = platform_driver_register(&vrampool_emul_driver);
	if (ret)
		return ret;

	for (i = 0; i < count; i++) {
		pdev = platform_device_register_simple(DRIVER_NAME, i, NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err_destroy_devices;
		}
		vrampool_emul_pdevs[i] = pdev;
	}
	return 0;

err_destroy_devices:
	vrampool_emul_destroy_devices();
	platform_driver_unregister(&vrampool_emul_driver);
	return ret;
}

/**
 * vrampool_emul_unregister() - remove the emulated devices and their driver
 */
void vrampool_emul_unregister(void)
{
	vrampool_emul_destroy_devices();
	platform_driver_unregister(&vrampool_emul_driver);
}
