"""The domain core: every rule, validation and permission check, once. No Reflex imports."""
