// Shared singletons are negotiated asynchronously by Module Federation: start behind this boundary.
import('./bootstrap');
