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

#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/vmalloc.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "vrampool_device.h"
#include "vrampool_drv.h"
#include "vrampool_emul.h"

static struct platform_device *vrampool_emul_pdevs[VRAMPOOL_MAX_EMULATED_DEVICES];
static u64 vrampool_emul_vram_size;

static void vrampool_emul_vram_free(struct drm_device *drm, void *vram)
{
	vfree(vram);
}

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
	void *vram;
	int ret;

	vrampool_module_props(vrampool_emul_vram_size, &props);
	ret = vrampool_props_check(&pdev->dev, &props);
	if (ret)
		return ret;
	ret = vrampool_emul_size_check(&pdev->dev, props.vram_size);
	if (ret)
		return ret;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vrampool_drm_driver,
				  struct vrampool_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	vram = __vmalloc(props.vram_size, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!vram) {
		dev_err(&pdev->dev, "refusing device: cannot allocate %llu bytes of emulated VRAM\n",
			props.vram_size);
		return -ENOMEM;
	}
	/* Freed only after TTM is gone, when the last client has closed. */
	ret = drmm_add_action_or_reset(&vdev->drm, vrampool_emul_vram_free, vram);
	if (ret)
		return ret;
	iosys_map_set_vaddr(&vdev->vram, vram);

	ret = vrampool_device_init(vdev, VRAMPOOL_VRAM_EMULATED, &props);
	if (ret)
		return ret;

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
 * @count: how many (the emulated_devices parameter)
 * @vram_size: VRAM of each, in bytes
 *
 * Return: 0, or a negative errno if @count is out of range or the platform
 * devices cannot be created. A device whose probe refuses it does not fail
 * the module load.
 */
int vrampool_emul_register(unsigned int count, u64 vram_size)
{
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	if (count > VRAMPOOL_MAX_EMULATED_DEVICES) {
		pr_err(DRIVER_NAME ": emulated_devices=%u exceeds the maximum of %u\n",
		       count, VRAMPOOL_MAX_EMULATED_DEVICES);
		return -EINVAL;
	}

	vrampool_emul_vram_size = vram_size;
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
