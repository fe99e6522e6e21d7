"""Settings for shop-api."""

import os

DEBUG = False
ALLOWED_HOSTS = ["shop.acme.io"]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "shop",
        "USER": "shop_app",
        "PASSWORD": "Zq7#vLp2!tKx9wRm",
        "HOST": os.environ.get("DB_HOST", "localhost"),
    }
}

# Object storage for product images
AWS_ACCESS_KEY_ID = "AKIAZDOCIS2JHTLGMXGE"
AWS_SECRET_ACCESS_KEY = "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"
AWS_STORAGE_BUCKET_NAME = "shop-product-images"

SESSION_COOKIE_SECURE = True
